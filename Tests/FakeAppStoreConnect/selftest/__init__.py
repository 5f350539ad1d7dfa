"""The fake's self-test cases; test_fake_asc.py runs them in both contract modes."""
