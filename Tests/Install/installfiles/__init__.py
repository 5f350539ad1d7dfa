"""The checks of test_install_files.py, one module per area; `common` holds what they share."""
