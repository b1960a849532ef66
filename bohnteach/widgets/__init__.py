"""Interactive ipywidgets: scene player, Mach du!, trial game, class panel, questions, progress."""
