"""Ladybohn's teaching half: the chart of both Bohnometers (``charts``) and the chapter page
(``page``, imported by ``notebooks/14_Ladybohn.ipynb``); the rules half never imports it."""
