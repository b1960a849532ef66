"""The class store („Klassenraum“): what the pupils' kernels share under ``bohnteach serve``.

Every pupil's page runs in a kernel of its own; a class (its code, its members and what
they submitted) lives in a store that all kernels open: an SQLite file by default, a
PostgreSQL server by URL for a site with several Voilà servers (:mod:`.store`). The
activities a class can do (estimates to commit before the reveal, pooled experiments) are
data (:mod:`.activities`); the widgets that show them are in
:mod:`bohnteach.widgets.classroom`.

SQLAlchemy (and psycopg, segno) are imported only when a store is opened, so a lesson
without a store (Jupyter, the static site in the browser) never loads them.
"""
