"""The static site's previews: a widget's look as HTML, and where a page gets it.

The browser side (the preview shows before Python runs, cannot be clicked, and gives way to
the live page) is in ``tests/test_static_site.py``.
"""
from __future__ import annotations

from pathlib import Path

import ipywidgets as widgets
import nbformat
import pytest

from bohnteach.site.preview import PreviewError, insert_previews, page_previews
from bohnteach.site.serve import site_dir
from bohnteach.widgets.snapshot import PLOTLY, WIDGET_VIEW, outputs_html, snapshot


def test_snapshot_draws_boxes_text_and_disabled_controls():
    hidden = widgets.HTML("geheim", layout=widgets.Layout(display="none"))
    box = widgets.VBox([
        widgets.HTML("<b>Anna</b> ist am Zug"),
        widgets.HBox([widgets.Button(description="▶ weiter", button_style="primary"),
                      widgets.Button(description="<zurück>")]),
        widgets.Dropdown(options=["Feuerbohne", "Blaue Bohne"], value="Blaue Bohne",
                         description="Sorte:"),
        widgets.IntSlider(value=3, min=1, max=8, description="Karten:"),
        hidden,
    ], layout=widgets.Layout(width="100%"))
    box.add_class("bt-scene-player")
    html = snapshot(box)
    assert 'class="lm-Widget jupyter-widgets widget-container widget-box widget-vbox bt-scene-player"' in html
    assert 'style="width: 100%"' in html
    assert "<b>Anna</b> ist am Zug" in html  # HTML stays HTML
    assert "mod-primary" in html and "&lt;zurück&gt;" in html  # labels are escaped
    assert html.count(" disabled") == 4  # two buttons, the dropdown, the slider
    assert "<option selected>Blaue Bohne</option>" in html
    assert 'value="3"' in html and "Karten:" in html
    assert "geheim" not in html  # a hidden part stays hidden


def test_outputs_become_html_and_charts_a_box_of_their_height():
    out = widgets.Output()
    out.outputs = (
        {"output_type": "display_data", "data": {"text/html": "<p>Tabelle</p>"}, "metadata": {}},
        {"output_type": "display_data", "metadata": {},
         "data": {PLOTLY: {"data": [], "layout": {"title": {"text": "Wie oft?"}, "height": 420}}}},
    )
    html = snapshot(out)
    assert "<p>Tabelle</p>" in html
    assert 'style="height: 420px"' in html and "Wie oft?" in html
    stream = outputs_html([{"output_type": "stream", "name": "stdout", "text": "1 < 2"}])
    assert stream == ('<div class="jp-OutputArea"><div class="jp-OutputArea-child"><div class="jp-OutputArea-output">'
                      '<pre class="bt-preview-text">1 &lt; 2</pre></div></div></div>')
    # a widget output is found by its model id
    button = widgets.Button(description="Los")
    view = {"output_type": "display_data", "metadata": {},
            "data": {WIDGET_VIEW: {"model_id": button.model_id, "version_major": 2}}}
    assert "Los</button>" in outputs_html([view])
    assert outputs_html([{"output_type": "display_data", "metadata": {},
                          "data": {WIDGET_VIEW: {"model_id": "unbekannt"}}}]) == ""


def test_previews_go_into_their_cells(tmp_path: Path):
    page = tmp_path / "seite.html"
    page.write_text('<body class="jp-Notebook"><div cell-index="1"><p>Text</p></div>'
                    '<div cell-index="2"><script></script></div><div cell-index="3"></div></body>')
    assert insert_previews(page, {2: "<b>Vorschau</b>"}) == 1
    text = page.read_text()
    assert '<body class="bt-previewing jp-Notebook">' in text
    assert ('<div cell-index="2"><div class="bt-preview" inert>'
            "<b>Vorschau</b></div><script>") in text
    assert text.count("bt-preview\"") == 1
    plain = tmp_path / "leer.html"
    plain.write_text('<body class="jp-Notebook"><div cell-index="1"></div></body>')
    assert insert_previews(plain, {}) == 0
    assert "bt-previewing" not in plain.read_text()  # nothing to preview: the spinner as before


def test_a_page_run_at_build_time_gives_its_scene_as_preview():
    previews = page_previews(site_dir() / "notebooks" / "02_Phase_1.ipynb")
    html = "".join(previews.values())
    assert "bt-scene-player" in html and "bt-table" in html  # the scene, drawn
    assert "Schritt 0" in html
    assert "weiter</button>" in html and "Traceback" not in html


def _notebook(tmp_path: Path, *sources: str) -> Path:
    path = tmp_path / "seite.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Seite")]
                                  + [nbformat.v4.new_code_cell(s) for s in sources])
    nbformat.write(nb, path)
    return path


def test_what_a_cell_shows_in_an_output_widget_stays_in_it(tmp_path: Path):
    page = _notebook(tmp_path, "import ipywidgets as w\nfrom IPython.display import HTML, display",
                     "out = w.Output()\nwith out:\n    display(HTML('<i>drin</i>'))\n"
                     "display(HTML('<u>daneben</u>'))\nout")
    previews = page_previews(page)
    assert list(previews) == [3]  # cell 2 shows nothing; cells count from 1, prose included
    html = previews[3]
    assert html.index("<u>daneben</u>") < html.index("widget-output")
    assert html.index("widget-output") < html.index("<i>drin</i>")


def test_markdown_shown_by_a_cell_or_in_an_output_widget_is_rendered(tmp_path: Path):
    page = _notebook(tmp_path, "import ipywidgets as w\nfrom IPython.display import Markdown, display",
                     "out = w.Output()\nwith out:\n    display(Markdown('# Drin\\n\\n**fett**'))\n"
                     "display(Markdown('Daneben'))\nout")
    html = page_previews(page)[3]
    assert '<h1 id="Drin">Drin' in html and "<strong>fett</strong>" in html
    assert "<p>Daneben</p>" in html and "jp-RenderedMarkdown" in html
    assert "Markdown object" not in html


def test_the_apps_start_page_preview_shows_its_prose():
    html = "".join(page_previews(site_dir() / "notebooks" / "app.ipynb").values())
    assert "<h1" in html and "Markdown object" not in html


def test_a_page_that_fails_at_build_time_says_which_cell(tmp_path: Path):
    with pytest.raises(PreviewError, match="Zelle 3.*ZeroDivisionError"):
        page_previews(_notebook(tmp_path, "x = 1", "x / 0"))
