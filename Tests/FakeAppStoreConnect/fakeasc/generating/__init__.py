"""The generator's parts (`generator.py` puts them together): its tables, the app's own settings, the products, and
their offers."""
