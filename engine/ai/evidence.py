"""How sure a figure of the analysis is: an estimate with its standard error, and a
label only where the evidence holds (issue 33).

A move's **drop** (how far the played move's chance is below the best move's, in points)
is the mean of paired samples: in each world dealt from the mover's information both
moves are played out with the same generator, and the sample is the difference of their
scores. Its interval is ``mean ± Z × standard error``. A label is given only when that
whole interval lies inside the label's band (:data:`BANDS`); an interval across a
band's edge is **unclear**, and the analysis shows no mark for it. While an interval
straddles an edge the analysis adds worlds to that move (:func:`decided`), up to a cap:
the samples go where they decide a label, as a paired t test decides a search level's
move (:func:`engine.ai.search.keep_unless_beaten`).

Looking again after every batch and stopping once an interval fits is a sequential test,
and a 95 % interval read at each of several looks misses far more often than 1 time in
20: a drop near a band's edge would clear it at some look by luck, and another run of the
same game would not. So the interval at a look is a **repeated confidence interval**
(Jennison & Turnbull, *Group Sequential Methods*, 2000, ch. 9) with O'Brien and
Fleming's boundary (:func:`at_look`): wide at the first looks, about 95 % at the last,
holding the drop at every look at once 19 times in 20.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.core.rng import Rng

#: lichess's thresholds, in points of win chance (engine.ai.analysis's docstring)
INACCURACY, MISTAKE, BLUNDER = 5.0, 10.0, 15.0
#: the labels' bands of a drop, in points: [low, high)
BANDS: tuple[tuple[str | None, float, float], ...] = (
    (None, -math.inf, INACCURACY),
    ("inaccuracy", INACCURACY, MISTAKE),
    ("mistake", MISTAKE, BLUNDER),
    ("blunder", BLUNDER, math.inf),
)
#: the interval's half-width in standard errors (two-sided 95 % under a normal mean)
Z = 1.96
#: O'Brien and Fleming's constant C_K for K = 1..32 equally spaced looks, two-sided 5 %:
#: the half-width at look k is C_K sqrt(K / k). Computed by the recursive integration of
#: Armitage, McPherson & Rowe (1969); checked against Jennison & Turnbull (2000), table 2.3
OBRIEN_FLEMING = (
    *(1.960, 1.977, 2.004, 2.024, 2.040, 2.053, 2.064, 2.072, 2.080, 2.087, 2.092),
    *(2.098, 2.102, 2.107, 2.110, 2.114, 2.117, 2.120, 2.123, 2.126, 2.128, 2.130),
    *(2.133, 2.134, 2.137, 2.138, 2.140, 2.142, 2.143, 2.145, 2.146, 2.147),
)
#: a verdict whose interval crosses a band's edge
UNCLEAR = "unclear"


@dataclass(frozen=True)
class Estimate:
    """A mean of ``n`` samples (points) with its standard error; its interval is ``mean ±
    z × se`` (``z``: :data:`Z`, or a repeated interval's, :func:`at_look`)."""

    mean: float
    se: float
    n: int
    z: float = Z

    @property
    def low(self) -> float:
        return self.mean - self.z * self.se

    @property
    def high(self) -> float:
        return self.mean + self.z * self.se


def at_look(drop: Estimate, look: int, looks: int) -> Estimate:
    """``drop`` with the repeated confidence interval of look ``look`` of at most
    ``looks`` (1-based): O'Brien and Fleming's half-width, C_K sqrt(K / k) standard errors."""
    if not 1 <= look <= looks <= len(OBRIEN_FLEMING):
        raise ValueError(f"look {look} of {looks}")
    return replace(drop, z=OBRIEN_FLEMING[looks - 1] * math.sqrt(looks / look))


def estimate(samples: Sequence[float], weights: Sequence[float] | None = None) -> Estimate:
    """The mean of ``samples`` and its standard error; with ``weights`` (a stratified
    estimate: one sample per stratum, weighing its probability), the weighted mean and the
    standard error of a weighted mean of independent samples."""
    n = len(samples)
    if n == 0:
        raise ValueError("no samples")
    if weights is None:
        mean = sum(samples) / n
        if n < 2:
            return Estimate(mean, 0.0, n)
        variance = sum((s - mean) ** 2 for s in samples) / (n - 1)
        return Estimate(mean, math.sqrt(variance / n), n)
    total = sum(weights)
    shares = [w / total for w in weights]
    mean = sum(w * s for w, s in zip(shares, samples, strict=True))
    if n < 2:
        return Estimate(mean, 0.0, n)
    # the spread of the samples about the weighted mean, as if each were drawn by weight
    variance = sum(w * (s - mean) ** 2 for w, s in zip(shares, samples, strict=True)) * n / (n - 1)
    effective = 1.0 / sum(w * w for w in shares)
    return Estimate(mean, math.sqrt(variance / effective), n)


#: the two-sided 95 % quantile of Student's t by degrees of freedom, 1-30 (beyond: the
#: Cornish-Fisher expansion about :data:`Z`, :func:`t_quantile`)
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)  # fmt: skip


def t_quantile(df: int) -> float:
    """The half-width, in standard errors, of a two-sided 95 % interval of Student's t
    with ``df`` degrees of freedom (at least 1)."""
    if df < 1:
        raise ValueError("at least one degree of freedom")
    if df <= len(_T95):
        return _T95[df - 1]
    return Z + (Z**3 + Z) / (4 * df) + (5 * Z**5 + 16 * Z**3 + 3 * Z) / (96 * df**2)


def clustered(samples: Sequence[float], clusters: Sequence[object]) -> Estimate:
    """The mean of ``samples`` with a standard error that holds when the samples of one
    cluster are correlated (``clusters[i]``: sample ``i``'s; Cloak & Dagger's worlds
    descending from one world dealt from scratch, :mod:`engine.ai.cloak.particles`) and
    samples of different clusters independent. The cluster-robust (sandwich) variance of
    a mean, with the usual small-sample factor G/(G-1) over G clusters (CR1: Cameron &
    Miller, "A Practitioner's Guide to Cluster-Robust Inference", J. Human Resources
    2015): the residuals summed per cluster, their squares summed, over n². With few
    clusters that variance is itself uncertain, so the interval is Student's t with G-1
    degrees of freedom (Cameron & Miller's advice for few clusters), stated as the
    standard error whose ±:data:`Z` interval is that t interval (the error times
    t/Z): every reader of a figure's error (the labels' bands, a graph's band) then
    reads the wider interval. Never below the error of independent samples (a
    cluster-robust error below it is noise of few clusters: correlation within the
    worlds of one lineage is not negative); one cluster alone: the samples' spread itself,
    as if they were one sample. Samples all in clusters of their own: as :func:`estimate`,
    widened to the t interval with n-1 degrees of freedom."""
    n = len(samples)
    if n != len(clusters):
        raise ValueError("one cluster per sample")
    plain = estimate(samples)
    if n < 2:
        return plain
    sums: dict[object, float] = {}
    for sample, cluster in zip(samples, clusters, strict=True):
        sums[cluster] = sums.get(cluster, 0.0) + sample - plain.mean
    groups = len(sums)
    if groups < 2:
        return Estimate(plain.mean, plain.se * math.sqrt(n), n)
    variance = groups / (groups - 1) * sum(s * s for s in sums.values()) / n**2
    robust = math.sqrt(variance) * t_quantile(groups - 1) / Z
    return Estimate(plain.mean, max(robust, plain.se), n)


#: resamples of the worlds by which :func:`choice_shares` asks which choice would be found best
RESAMPLES = 200
#: at most this many other choices, each found best in at least this share of the resamples,
#: are a drop's rivals (:func:`with_choice`)
RIVALS, RIVAL_SHARE = 3, 0.05
#: a choice whose paired deficit to the best is this many standard errors clear is never
#: found best in a resample worth counting (it is left out of the resamples)
CLEAR_OF_BEST = 4.0


def rivals(scores: Sequence[Sequence[float]], best: int, rng: Rng) -> list[tuple[int, float]]:
    """The choices another run could find best, with how often: ``scores`` holds per
    choice its score in each world (the same worlds and generators for every choice),
    ``best`` the choice found best on them all. A bootstrap over the worlds
    (:data:`RESAMPLES`) counts, per choice, the resamples in which its total is highest
    (ties to ``best``, then to the higher index); returned: ``best`` then up to
    :data:`RIVALS` others found best in at least :data:`RIVAL_SHARE` of them, each with its
    share. Choices clear of the best are left out of the resamples."""
    top = scores[best]
    near = [
        c
        for c, row in enumerate(scores)
        if c == best
        or (gap := estimate([t - r for t, r in zip(top, row, strict=True)])).mean
        <= CLEAR_OF_BEST * gap.se
    ]
    counts = dict.fromkeys(near, 0)
    for _ in range(RESAMPLES if len(near) > 1 else 0):
        drawn = [rng.below(len(top)) for _ in top]
        counts[max((sum(scores[c][w] for w in drawn), c == best, c) for c in near)[2]] += 1
    if len(near) == 1:
        return [(best, 1.0)]
    others = sorted((c for c in near if c != best and counts[c]), key=lambda c: -counts[c])
    kept = [c for c in others if counts[c] >= RIVAL_SHARE * RESAMPLES][:RIVALS]
    return [(c, counts[c] / RESAMPLES) for c in [best, *kept]]


def with_choice(
    drop: Estimate, rivals: Sequence[tuple[float, float]], draws: int | None = None
) -> Estimate:
    """``drop`` (measured against the choice found best) with the spread of the choice
    itself added to its variance: ``rivals`` holds, per choice another run could have
    found best (the found one included), its share of such runs and the drop measured
    against it on the same samples. A drop whose reference move is a coin toss between
    choices of different worth varies from run to run by more than its samples say.
    ``draws``: the shares are the frequencies among that many runs of the search (not a
    resample's probabilities), so the spread is their sample variance (times
    draws/(draws-1))."""
    total = sum(share for share, _ in rivals)
    if total <= 0:
        return drop
    centre = sum(share * d for share, d in rivals) / total
    spread = sum(share * (d - centre) ** 2 for share, d in rivals) / total
    if draws is not None and draws > 1:
        spread *= draws / (draws - 1)
    return replace(drop, se=math.sqrt(drop.se**2 + spread))


def verdict(drop: Estimate) -> str | None:
    """The label whose band holds the whole interval of ``drop`` (None: the band of a
    sound move), else :data:`UNCLEAR`."""
    for name, low, high in BANDS:
        if low <= drop.low and drop.high < high:
            return name
    return UNCLEAR


def decided(drop: Estimate) -> bool:
    """Does the interval of ``drop`` lie inside one band (more samples would not change
    the verdict but by chance)?"""
    return verdict(drop) != UNCLEAR


#: lichess's per-move accuracy from win-chance loss (points): 103.1668 exp(-0.04354 d) - 3.1669
_A, _B, _C = 103.1668100711649, 0.04354415386753951, 3.166924740191411


def move_accuracy(drop: float) -> float:
    """lichess's accuracy of a move that lost ``drop`` points of the mover's chance
    (lila ``modules/analyse/src/main/AccuracyPercent.scala``), 0-100."""
    if drop <= 0:
        return 100.0
    return min(100.0, max(0.0, _A * math.exp(-_B * drop) - _C))


def accuracy_se(drop: Estimate) -> float:
    """The standard error of :func:`move_accuracy` of ``drop`` (delta method: the curve's
    slope at the drop times the drop's standard error)."""
    if drop.mean <= 0:
        return _A * _B * drop.se if drop.high > 0 else 0.0
    return _A * _B * math.exp(-_B * drop.mean) * drop.se
