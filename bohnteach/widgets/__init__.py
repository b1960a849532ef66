"""Interactive ipywidgets: scene player, Mach du!, Probespiel, questions, progress."""
