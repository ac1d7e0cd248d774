"""A label only where the evidence holds (engine/ai/evidence.py, issue 33): planted
samples whose interval lies inside a band, or across its edge."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from engine.ai.evidence import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    OBRIEN_FLEMING,
    UNCLEAR,
    Estimate,
    Z,
    accuracy_se,
    at_look,
    clustered,
    estimate,
    move_accuracy,
    rivals,
    t_quantile,
    verdict,
    with_choice,
)
from engine.core.rng import Rng


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


def missed_at_some_look(looks: int, z_at, runs: int = 40_000, seed: int = 7) -> float:
    """How often a sequence of ``looks`` looks at a mean of true value 0 (a batch of
    standard normal samples a look) has an interval that misses 0 at some look, the
    half-width at look k being ``z_at(k)`` standard errors."""
    rng = random.Random(seed)
    missed = 0
    for _ in range(runs):
        total = 0.0
        for k in range(1, looks + 1):
            total += rng.gauss(0.0, 1.0)
            if abs(total / math.sqrt(k)) >= z_at(k):
                missed += 1
                break
    return missed / runs


@pytest.mark.parametrize("looks", [3, 8, 32])
def test_repeated_intervals_hold_the_truth_at_every_look_at_once(looks):
    # a 95 % interval read at every look misses far more often than 1 time in 20 ...
    assert missed_at_some_look(looks, lambda _k: Z) > 0.1
    # ... the repeated one misses 1 time in 20 over all the looks together
    drop = Estimate(0.0, 1.0, 24)
    repeated = missed_at_some_look(looks, lambda k: at_look(drop, k, looks).z)
    assert repeated == pytest.approx(0.05, abs=0.006)


def test_a_first_look_needs_more_evidence_than_the_last():
    drop = estimate(planted(22.0, 2.5))  # [17.1, 26.9] at 95 %: all blunder
    assert verdict(drop) == "blunder"
    assert at_look(drop, 8, 8).z == OBRIEN_FLEMING[7] and verdict(at_look(drop, 8, 8)) == "blunder"
    first = at_look(drop, 1, 8)
    assert first.z == pytest.approx(OBRIEN_FLEMING[7] * math.sqrt(8)) and verdict(first) == UNCLEAR
    assert at_look(drop, 1, 1).z == Z  # one look: the plain 95 % interval
    with pytest.raises(ValueError):
        at_look(drop, 9, 8)


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


def test_a_drop_against_a_coin_toss_of_best_moves_is_as_unsure_as_the_toss():
    # 12.5 +- 0.5 on its samples is a mistake; but another run would find, 4 times in 10,
    # a best move the played one is 17.5 below: the drop's error holds that spread
    drop = estimate(planted(12.5, 0.5))
    assert verdict(drop) == "mistake"
    tossed = with_choice(drop, [(0.6, 12.5), (0.4, 17.5)])
    assert tossed.mean == drop.mean and tossed.n == drop.n
    assert tossed.se == pytest.approx(math.sqrt(0.5**2 + 0.6 * 0.4 * 5.0**2))
    assert verdict(tossed) == UNCLEAR
    # a best move every run finds: the samples' error alone
    assert with_choice(drop, [(1.0, 12.5)]) == drop


def test_the_choices_another_run_could_find_best_are_the_near_ties():
    n = 48
    best = [50.0 + (5.0 if w % 2 else -5.0) for w in range(n)]
    # a near tie (0.5 below on average, its difference to the best spread +-10 per world),
    # a move clearly worse, and one worse by far
    tie = [b - 0.5 + (10.0 if w % 3 else -20.0) for w, b in enumerate(best)]
    worse = [b - 20.0 + (1.0 if w % 2 else -1.0) for w, b in enumerate(best)]
    far = [0.0] * n
    found = rivals([worse, best, far, tie], 1, Rng(7))
    assert [c for c, _ in found] == [1, 3]
    assert 0.05 <= found[1][1] < found[0][1] and sum(w for _, w in found) == pytest.approx(1.0)
    # alone at the top (every other clearly below): every run would find it
    assert rivals([worse, best, far], 1, Rng(7)) == [(1, 1.0)]
    # a choice scoring as the best in every world (the same move by another name) is found
    # best only as the best is, never instead of it
    assert rivals([list(best), best, worse], 1, Rng(7)) == [(1, 1.0)]


def test_a_drop_against_the_moves_a_few_searches_found_counts_their_sample_variance():
    # 4 searches, 2 found one move (drop 0), 2 another (drop 10): the spread of the toss is
    # the sample variance of the 4 drops (25 * 4/3), not the variance of the 4 alone
    drop = estimate(planted(0.0, 0.5))
    tossed = with_choice(drop, [(0.5, 0.0), (0.5, 10.0)], draws=4)
    assert tossed.se == pytest.approx(math.sqrt(0.5**2 + 25.0 * 4 / 3))
    assert with_choice(drop, [(0.5, 0.0), (0.5, 10.0)]).se == pytest.approx(math.sqrt(25.25))


def test_students_t_quantiles():
    assert t_quantile(1) == 12.706 and t_quantile(3) == 3.182 and t_quantile(30) == 2.042
    assert 2.039 < t_quantile(31) < 2.042 and t_quantile(120) == pytest.approx(1.980, abs=1e-3)
    assert t_quantile(10**6) == pytest.approx(Z, abs=1e-4)
    with pytest.raises(ValueError):
        t_quantile(0)


def test_clustered_samples_give_the_cluster_robust_error():
    # four worlds dealt from scratch and five copies of each (Cloak & Dagger's carried
    # worlds): within a lineage the samples move together, so the mean is as sure as four
    # draws, not 24 — the residuals summed per cluster (CR1), Student's t with 3 degrees
    clusters = [g for g in range(4) for _ in range(6)]
    samples = [10.0 * g + (1.0 if i % 2 else -1.0) for i, g in enumerate(clusters)]
    found = clustered(samples, clusters)
    sums = [6 * (10.0 * g - 15.0) for g in range(4)]  # each cluster's residuals, summed
    robust = math.sqrt(4 / 3 * sum(x * x for x in sums) / 24**2)
    assert found.mean == pytest.approx(15.0) and found.n == 24
    assert found.se == pytest.approx(robust * 3.182 / Z)
    assert found.se > 4 * estimate(samples).se  # as if independent: four times too sure
    # every sample a cluster of its own: the independent samples' error, to t's interval
    alone = clustered(samples, list(range(24)))
    assert alone.se == pytest.approx(estimate(samples).se * t_quantile(23) / Z)
    # one lineage: as sure as one sample
    assert clustered(samples, [0] * 24).se == pytest.approx(statistics.stdev(samples))
    # clusters whose samples cancel: never surer than independent samples
    opposed = [0.0, 100.0] * 12
    pairs = [k // 2 for k in range(24)]
    assert clustered(opposed, pairs).se == estimate(opposed).se
    with pytest.raises(ValueError):
        clustered(samples, clusters[1:])
