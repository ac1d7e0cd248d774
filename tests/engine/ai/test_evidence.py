"""A label only where the evidence holds (engine/ai/evidence.py, issue 33): planted
samples whose interval lies inside a band, or across its edge."""

from __future__ import annotations

import math

import pytest

from engine.ai.evidence import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    UNCLEAR,
    Estimate,
    Z,
    accuracy_se,
    estimate,
    move_accuracy,
    verdict,
)


def planted(mean: float, se: float, n: int = 50) -> list[float]:
    """``n`` samples whose mean is ``mean`` and whose standard error is ``se`` exactly
    (half at mean - d, half at mean + d)."""
    assert n % 2 == 0
    d = se * math.sqrt(n) * math.sqrt((n - 1) / n)
    return [mean - d] * (n // 2) + [mean + d] * (n // 2)


def test_planted_samples_have_the_planted_mean_and_error():
    found = estimate(planted(7.5, 1.2))
    assert found.mean == pytest.approx(7.5) and found.se == pytest.approx(1.2) and found.n == 50


@pytest.mark.parametrize(
    ("edge", "band_below", "band_above"),
    [
        (INACCURACY, None, "inaccuracy"),
        (MISTAKE, "inaccuracy", "mistake"),
        (BLUNDER, "mistake", "blunder"),
    ],
)
def test_a_label_exactly_when_the_interval_clears_the_band(edge, band_below, band_above):
    se = 1.0
    half = Z * se
    # the interval's low end just above the edge: the band above; just below it: unclear
    assert verdict(estimate(planted(edge + half + 0.01, se))) == band_above
    assert verdict(estimate(planted(edge + half - 0.01, se))) == UNCLEAR
    # the interval's high end just below the edge: the band below; just above it: unclear
    assert verdict(estimate(planted(edge - half - 0.01, se))) == band_below
    assert verdict(estimate(planted(edge - half + 0.01, se))) == UNCLEAR


def test_the_same_mean_is_a_label_or_unclear_by_its_error():
    assert verdict(estimate(planted(12.5, 0.5))) == "mistake"
    assert verdict(estimate(planted(12.5, 2.0))) == UNCLEAR
    assert verdict(estimate(planted(30.0, 6.0))) == "blunder"  # [18.2, 41.8] is all blunder
    assert verdict(estimate(planted(1.0, 0.5))) is None  # sure it lost less than 5 points


def test_samples_all_alike_are_as_sure_as_they_look():
    assert estimate([0.0] * 24) == Estimate(0.0, 0.0, 24)
    assert verdict(estimate([0.0] * 24)) is None


def test_a_stratified_estimate_weighs_each_stratum():
    found = estimate([0.0, 100.0], weights=[3, 1])
    assert found.mean == pytest.approx(25.0) and found.se > 0
    # equal weights: the plain mean and error
    plain, weighed = (
        estimate([10.0, 30.0, 50.0, 70.0]),
        estimate([10.0, 30.0, 50.0, 70.0], [1, 1, 1, 1]),
    )
    assert weighed.mean == pytest.approx(plain.mean) and weighed.se == pytest.approx(plain.se)


def test_accuracy_and_its_error_follow_lichess_curve():
    assert move_accuracy(0.0) == 100.0 and move_accuracy(100.0) == 0.0
    assert move_accuracy(10.0) == pytest.approx(103.1668 * math.exp(-0.4354) - 3.1669, abs=0.05)
    drop = Estimate(10.0, 2.0, 24)
    slope = (move_accuracy(10.001) - move_accuracy(9.999)) / 0.002
    assert accuracy_se(drop) == pytest.approx(-slope * 2.0, rel=1e-3)
