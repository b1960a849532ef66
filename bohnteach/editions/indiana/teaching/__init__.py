"""Indiana Bohnes' teaching half: the bots' temple moves (``bot``), the temple's exact odds
(``temple``) and their chart (``charts``), the scene words (``scenes``) and the chapter page
(``page``, imported by ``notebooks/15_Indiana_Bohnes.ipynb``). Found by name through
``bohnteach/teaching.py``; the rules half (``rules.py``) never imports it."""
