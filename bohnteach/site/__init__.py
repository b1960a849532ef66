"""The Voila site: page building blocks and navigation, page modules, serve, the template."""
