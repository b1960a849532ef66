"""Showing the game: the table as HTML, the stylesheet, plotly charts, the edition comparison."""
