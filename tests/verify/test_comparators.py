"""Stdout comparators."""

from reward_api.verify.comparators import comparator, lcb_equal


def test_lcb_strips_lines_and_trailing_whitespace():
    assert lcb_equal("1 2 \n3\n\n", "1 2\n3")


def test_lcb_compares_numbers_as_decimals():
    assert lcb_equal("1.0 2.50\n", "1.00 2.5")


def test_lcb_rejects_different_line_counts():
    assert not lcb_equal("1\n2\n", "1 2\n")


def test_lcb_rejects_different_numbers():
    assert not lcb_equal("1.0001\n", "1.0\n")


def test_exact_is_byte_for_byte():
    assert not comparator("exact")("1\n", "1")


def test_tokens_ignore_line_breaks():
    assert comparator("tokens")("1\n2\n", "1 2")


def test_float_tolerance():
    equal = comparator("float:1e-6")
    assert equal("0.3333333", "0.33333333") and not equal("0.3334", "0.3333")
