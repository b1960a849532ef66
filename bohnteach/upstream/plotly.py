"""plotly: a subplot grid carried into a figure made from data (the figure's private
``_grid_ref``/``_grid_str``). In the browser, plotly.js's private ``_fullLayout`` (the
template's resize of a chart, ``bohnteach/site/jupyter/voila/templates``) is the other contact;
tests/test_site_pages.py draws charts in the browser."""
from __future__ import annotations

from typing import Any

from bohnteach.upstream import problem, version_problems

#: The version this adapter was checked against (pinned so in pyproject.toml's [site] and [static]).
CHECKED = {"plotly": "7.1.0"}


def check() -> list[str]:
    """What of plotly this adapter touches and finds changed."""
    found = version_problems(CHECKED)
    if found:
        return found
    from plotly.subplots import make_subplots

    grid = make_subplots(rows=1, cols=2)
    for name in ("_grid_ref", "_grid_str"):
        if getattr(grid, name, None) is None:
            found.append(problem("plotly", f"make_subplots gibt kein {name}"))
    if not found:
        copy = grid_figure(grid, grid.layout.to_plotly_json())
        copy.add_scatter(x=[1], y=[1], row=1, col=2)  # needs the grid
    return found


def grid_figure(grid: Any, layout: dict) -> Any:
    """A figure with ``layout`` that keeps the subplot grid of ``grid`` (made by
    ``make_subplots``): traces can then be added by row and column. The figure-as-data form
    plotly itself copies figures with."""
    import plotly.graph_objects as go

    return go.Figure({"layout": layout, "_grid_ref": grid._grid_ref, "_grid_str": grid._grid_str})
