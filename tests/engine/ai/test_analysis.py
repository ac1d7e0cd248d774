"""Match analysis (engine/ai/analysis.py): labels, marks and accuracy follow their
definitions; a seat's own figures read nothing it could not know (counterfactual states:
everything hidden from it changed); the same log, budget and seed give the same analysis."""

from __future__ import annotations

import pytest

from engine import get_game, play, replay
from engine.ai.analysis import (
    Analyst,
    _rng,
    analysable,
    analyse,
    engine_version,
    unknowable,
)
from engine.ai.contract import SAMPLING_FAILED, SamplingFailed
from engine.ai.evidence import (
    Estimate,
    at_look,
    clustered,
    estimate,
    move_accuracy,
    rivals,
    verdict,
    with_choice,
)
from engine.ai.registry import ai_of
from engine.ai.search import action_key
from engine.core.messages import msg, render
from tests.engine.ai.test_cryptid_beliefs import counterfactual as cryptid_counterfactual
from tests.engine.ai.test_misterx_beliefs import hidden_changed as misterx_counterfactual

CRYPTID = get_game("cryptid-urban-legends")
MISTER_X = get_game("mister-x")


def test_could_not_have_known_needs_a_real_fall_and_surely_none_of_its_own():
    sound = Estimate(1.0, 1.0, 24)  # its interval [-0.96, 2.96] lies below 5 points
    assert unknowable(sound, 10.0) and unknowable(sound, 30.0)
    assert not unknowable(Estimate(3.0, 1.5, 24), 30.0)  # it may have lost 5.9: not sure
    assert not unknowable(Estimate(6.0, 0.5, 24), 30.0)  # it could have known: its own fell too
    assert not unknowable(sound, 9.9)  # the real position did not fall by a mistake's worth


def test_every_game_is_analysable():
    cloak = get_game("cloak-and-dagger")
    assert analysable(cloak) and analysable(CRYPTID) and analysable(MISTER_X)


@pytest.fixture(scope="module")
def cryptid_analysis():
    log = play(CRYPTID.id, 3, ["greedy", "random"])
    steps: list[tuple[int, int]] = []
    result = analyse(
        replay(log), budget=6, seed=11, progress=lambda done, total: steps.append((done, total))
    )
    return log, result, steps


def test_every_ply_and_move_is_analysed_and_progress_is_reported(cryptid_analysis):
    log, result, steps = cryptid_analysis
    n = len(log["actions"])
    assert [p["ply"] for p in result["plies"]] == list(range(n + 1))
    assert [m["ply"] for m in result["moves"]] == list(range(1, n + 1))
    assert steps == [(k, n + 1) for k in range(1, n + 2)]
    assert result["engine"] == engine_version(CRYPTID) and result["budget"] == 6
    # the last ply is the result itself, for every seat and every perspective
    final = replay(log).result
    for seat in ("cryptid", "scientist"):
        won = 100.0 if final["winner"] == seat else 0.0
        assert result["plies"][-1]["own"][seat] == won == result["plies"][-1]["all"][seat]


def test_labels_marks_and_accuracy_follow_the_definitions(cryptid_analysis):
    _log, result, _steps = cryptid_analysis
    rated = [m for m in result["moves"] if m["rated"]]
    assert rated
    K = ai_of(get_game("cryptid-urban-legends")).analysis_drop_batches
    for move in rated:
        assert move["drop"] == pytest.approx(
            max(0.0, move["best_value"] - move["played_value"]), abs=0.11
        )
        # the interval is the repeated one of the look the drop stopped at: a batch of
        # ``budget`` worlds a look
        looks, rest = divmod(move["playouts"], result["budget"])
        assert rest == 0 and 1 <= looks <= K
        drop = at_look(
            Estimate(move["best_value"] - move["played_value"], move["drop_se"], move["playouts"]),
            looks,
            K,
        )
        # a drop lies in [-100, 100], and so does its interval as stored
        assert move["drop_low"] == pytest.approx(max(-100.0, drop.low), abs=0.2)
        assert move["drop_high"] == pytest.approx(min(100.0, drop.high), abs=0.2)
        # a label exactly when the interval lies in its band; unclear (no label) otherwise
        found = verdict(drop)
        assert (move["label"], move["unclear"]) == (
            (None, True) if found == "unclear" else (found, False)
        )
        assert move["unknowable"] == unknowable(drop, move["all_seeing_drop"])
        assert move["accuracy"] == pytest.approx(
            move_accuracy(drop.mean), abs=0.5
        )  # values rounded to 0.1
        assert move["best"] is None or move["label"] or move["unclear"]
    for seat, accuracy in result["accuracy"].items():
        mine = [m["accuracy"] for m in rated if m["seat"] == seat]
        assert accuracy == (pytest.approx(sum(mine) / len(mine), abs=0.05) if mine else None)
        assert (result["accuracy_se"][seat] is None) == (accuracy is None)
    for ply in result["plies"]:  # every chance with its standard error
        assert set(ply["own_se"]) == set(ply["own"]) and set(ply["all_se"]) == set(ply["all"])


def test_a_move_with_no_choice_is_not_rated():
    log = play(CRYPTID.id, 3, ["greedy", "random"])
    result = analyse(replay(log), budget=2, seed=0)
    analyst = Analyst(CRYPTID, 2)
    for (ply, action, _st), before in zip(
        list(replay(log).states())[1:], _befores(log), strict=True
    ):
        _decider, played, actions = analyst.listed(before, action)
        assert played is not None
        assert result["moves"][ply - 1]["rated"] == (len(actions) > 1)


def _befores(log):
    states = [CRYPTID.clone(st) for _p, _a, st in replay(log).states()]
    return states[:-1]


def test_the_drop_is_the_mover_own_chances_of_the_two_moves():
    # a random mover: its moves are often not the best found, so the drop is measured
    logs = [play(CRYPTID.id, seed, ["random", "random"]) for seed in (5, 6, 7)]
    analyst = Analyst(CRYPTID, 8, seed=3)
    measured = widened = 0
    steps = [
        (step, before)
        for log in logs
        for step, before in zip(list(replay(log).states())[1:], _befores(log), strict=True)
    ]
    for (ply, action, _st), before in steps:
        entry = analyst.judge(before, action, ply)
        if not entry["rated"] or entry["best"] is None:
            continue
        seat = entry["seat"]
        _d, played, actions = analyst.listed(before, action)
        # every choice scored over the first batches of worlds (the best of them found), or
        # the search over the first: the drop measured on the batches after them
        first = analyst.choice_batches if len(actions) <= analyst.every_move else 1
        references, shares = [entry["best"]], [1.0]
        if first > 1:
            chosen_on = [analyst.worlds(before, seat, ply - 1, None, b) for b in range(first)]
            rows = [
                [
                    x
                    for b, w in enumerate(chosen_on)
                    for x in analyst.scores(before, seat, [seat], ply, a, ("every", b), w)[0]
                ]
                for a in actions
            ]
            top = [action_key(a) for a in actions].index(action_key(entry["best"]))
            assert sum(rows[top]) == max(sum(row) for row in rows)
            assert sum(rows[top]) > sum(rows[actions.index(played)])
            # the choices another run could find best: the bootstrap over those worlds
            found = rivals(rows, top, _rng(analyst.seed, ply, seat, "resample"))
            references, shares = [actions[c] for c, _ in found], [w for _, w in found]
        # paired samples: the moves in the same worlds of the batches the choice did not see
        played_scores: list[float] = []
        reference_scores: list[list[float]] = [[] for _ in references]
        for batch in range(first, first + entry["playouts"] // analyst.budget):
            worlds = analyst.worlds(before, seat, ply - 1, None, batch)
            played_scores += analyst.scores(
                before, seat, [seat], ply, played, ("move", batch), worlds
            )[0]
            for scores_of, reference in zip(reference_scores, references, strict=True):
                scores_of += analyst.scores(
                    before, seat, [seat], ply, reference, ("move", batch), worlds
                )[0]
        drops = [
            estimate([r - p for r, p in zip(scores_of, played_scores, strict=True)])
            for scores_of in reference_scores
        ]
        assert entry["played_value"] == round(estimate(played_scores).mean, 1)
        assert entry["best_value"] == round(estimate(reference_scores[0]).mean, 1)
        # the drop's error: its paired samples', widened by the spread of the drops against
        # the moves another run would find best, each by its share of runs
        honest = with_choice(drops[0], [(w, d.mean) for w, d in zip(shares, drops, strict=True)])
        assert entry["drop_se"] == round(honest.se, 2)
        widened += honest.se > drops[0].se + 0.01
        assert entry["best_value"] > entry["played_value"] or entry["unclear"]
        measured += 1
    assert measured >= 2
    assert widened >= 1


OWN_FIELDS = (
    "seat",
    "rated",
    "played_value",
    "best_value",
    "drop",
    "drop_se",
    "drop_low",
    "drop_high",
    "playouts",
    "label",
    "unclear",
    "accuracy",
    "accuracy_se",
)


@pytest.mark.parametrize("seed", [2, 8])
def test_cryptid_own_figures_read_nothing_hidden(seed):
    log = play(CRYPTID.id, seed, ["greedy", "random"])
    analyst = Analyst(CRYPTID, 6, seed=1)
    actions = list(replay(log).actions)
    changed = 0
    for ply, (st, action) in enumerate(zip(_befores(log), actions, strict=True), start=1):
        for seat in ("cryptid", "scientist"):
            other = cryptid_counterfactual(st, seat)
            changed += other.hands != st.hands
            assert analyst.own_chance(st, seat, ply) == analyst.own_chance(other, seat, ply)
        decider = ai_of(CRYPTID).decision(st)[0]
        one = analyst.judge(st, action, ply)
        two = analyst.judge(cryptid_counterfactual(st, decider), action, ply)
        assert {k: one.get(k) for k in OWN_FIELDS} == {k: two.get(k) for k in OWN_FIELDS}
        assert action_key(one.get("best") or {}) == action_key(two.get("best") or {})
    assert changed > 5


def test_mister_x_own_figures_read_nothing_hidden():
    log = play(MISTER_X.id, 12, ["greedy", "random", "greedy"], max_actions=40)
    analyst = Analyst(MISTER_X, 4, seed=1)
    states = [MISTER_X.clone(st) for _p, _a, st in replay(log).states()][:-1]
    checked = 0
    for ply, (st, action) in enumerate(zip(states, replay(log).actions, strict=True), start=1):
        if ply % 3:
            continue
        for seat in ("mrx", "detectives", *st.det_seats):
            other = misterx_counterfactual(st, seat)
            assert analyst.own_chance(st, seat, ply) == analyst.own_chance(other, seat, ply)
        decider = ai_of(MISTER_X).decision(st)[0]
        one = analyst.judge(st, action, ply)
        two = analyst.judge(misterx_counterfactual(st, decider), action, ply)
        assert {k: one.get(k) for k in OWN_FIELDS} == {k: two.get(k) for k in OWN_FIELDS}
        checked += 1
    assert checked >= 10


def test_a_move_the_one_search_found_is_still_measured_against_its_runner_up():
    # Mister X's best move is searched once: a move that search found is not thereby
    # surely the best (another run's search could find its runner-up), so the drop is
    # measured against the runner-up too and carries that doubt, not 0 +- 0
    log = play(MISTER_X.id, 12, ["greedy", "random", "greedy"], max_actions=40)
    analyst = Analyst(MISTER_X, 4, seed=1)
    assert ai_of(MISTER_X).analysis_searches_again == 0
    states = [MISTER_X.clone(st) for _p, _a, st in replay(log).states()][:-1]
    agreed = widened = 0
    for ply, (st, action) in enumerate(zip(states, replay(log).actions, strict=True), start=1):
        decider, played, actions = analyst.listed(st, action)
        if played is None or len(actions) < 2:
            continue
        worlds = analyst.worlds(st, decider, ply - 1, None)
        found, shares, searches = analyst.searched(st, decider, ply, None, worlds)
        if action_key(found[0]) != action_key(played) or len(found) < 2:
            continue
        # one search, and its runner-up by Laplace's rule: 2/3 and 1/3
        assert searches == 1 and shares == [(0, pytest.approx(2 / 3)), (1, pytest.approx(1 / 3))]
        entry = analyst.judge(st, action, ply)
        assert entry["playouts"] >= analyst.budget and entry["best"] is None
        widened += entry["drop_low"] < entry["drop_high"]
        agreed += 1
    assert agreed >= 3 and widened >= 1


def test_cloak_and_dagger_own_figures_read_nothing_hidden():
    """Twins: each seat's unannounced envelopes renumbered. Its chances, and the judgement
    of its own moves (made within the envelope it opened), are the same in both games."""
    from tests.engine.test_cloak_knowledge import known_numbers, renumbered

    cloak = get_game("cloak-and-dagger")
    log = play(cloak.id, 6, ["greedy", "random", "greedy"], max_actions=36)
    r = replay(log)
    checked = differ = 0
    for seat in r.seats:
        twin_log = renumbered(log, known_numbers(r, seat), 5)[0]
        twin = replay(twin_log)
        # one analyst per game: each carries its own worlds from ply to ply
        analyst, other_analyst = Analyst(cloak, 3, seed=1), Analyst(cloak, 3, seed=1)
        pairs = zip(r.states(), twin.states(), strict=True)
        for (ply, _a, st), (_p, _b, other) in pairs:
            if ply % 4 or cloak.is_over(st):
                continue
            differ += st.envelopes != other.envelopes
            assert analyst.own_chance(st, seat, ply) == other_analyst.own_chance(other, seat, ply)
            if cloak.to_act(st) == [seat] and ply < len(log["actions"]):
                one = analyst.judge(st, log["actions"][ply], ply + 1)
                two = other_analyst.judge(other, twin_log["actions"][ply], ply + 1)
                assert {k: one.get(k) for k in OWN_FIELDS} == {k: two.get(k) for k in OWN_FIELDS}
                assert one.get("best") == two.get("best")
                checked += 1
    assert checked >= 5 and differ >= 5


def test_a_cloak_and_dagger_best_move_is_in_the_envelope_opened():
    cloak = get_game("cloak-and-dagger")
    log = play(cloak.id, 2, ["random", "random"], max_actions=30)
    analyst = Analyst(cloak, 6, seed=3)
    rated = better = 0
    for ply, (action, st) in enumerate(
        zip(log["actions"], _cloak_befores(log), strict=True), start=1
    ):
        entry = analyst.judge(st, action, ply)
        rated += entry["rated"]
        if entry["rated"] and entry["best"] is not None:
            assert action["type"] == "drop" or entry["best"]["envelope"] == action["envelope"]
            better += action["type"] != "drop"
    assert rated >= 20 and better >= 1


def _cloak_befores(log):
    game = get_game("cloak-and-dagger")
    return [game.clone(st) for _p, _a, st in replay(log).states()][:-1]


def test_the_chunks_in_any_order_make_the_same_analysis():
    from engine.ai.analysis import analyse_plies, chunks, merge

    log = play(CRYPTID.id, 0, ["greedy", "greedy"])
    rep = replay(log)
    parts = chunks(rep, 10)
    assert len(parts) >= 3 and [a for a, _b in parts] == list(range(0, len(rep.actions) + 1, 10))
    one = merge(
        rep,
        [analyse_plies(rep, a, b, budget=3, seed=5) for a, b in reversed(parts)],
        budget=3,
        seed=5,
    )
    two = merge(
        rep, [analyse_plies(rep, a, b, budget=3, seed=5) for a, b in parts], budget=3, seed=5
    )
    assert one == two and [p["ply"] for p in one["plies"]] == list(range(len(rep.actions) + 1))
    with pytest.raises(ValueError):  # a chunk missing
        merge(
            rep,
            [analyse_plies(rep, a, b, budget=3, seed=5) for a, b in parts[1:]],
            budget=3,
            seed=5,
        )


def test_the_same_log_budget_and_seed_give_the_same_analysis():
    log = play(CRYPTID.id, 4, ["greedy", "greedy"])
    one = analyse(replay(log), budget=4, seed=7)
    assert analyse(replay(log), budget=4, seed=7) == one
    assert analyse(replay(log), budget=4, seed=8) != one  # the seed does decide the draws


def test_a_position_without_worlds_is_marked_and_the_analysis_goes_on(monkeypatch):
    """The sampler gives up (forced here: p2's worlds from ply 6 to 11). p2's own chance
    there is None with the message id saying why, its decisions made there are not rated,
    with the same id; every other figure is estimated and the analysis ends."""
    from engine.ai.cloak import particles

    cloak = get_game("cloak-and-dagger")
    log = play(cloak.id, 4, ["greedy", "random", "greedy"], max_actions=24)
    dealt = particles.Particles.worlds

    def failing(self, state, opening, count, rng):
        if self.viewer == "p2" and 6 <= state.ply <= 11:
            raise SamplingFailed("forced")
        return dealt(self, state, opening, count, rng)

    monkeypatch.setattr(particles.Particles, "worlds", failing)
    result = analyse(replay(log), budget=2, seed=1)
    assert len(result["plies"]) == len(log["actions"]) + 1
    for entry in result["plies"]:
        if 6 <= entry["ply"] <= 11:
            assert entry["own"]["p2"] is None and entry["not_estimated"] == {"p2": SAMPLING_FAILED}
        else:
            assert entry["own"]["p2"] is not None and "not_estimated" not in entry
        assert None not in [entry["own"]["p1"], entry["own"]["p3"], *entry["all"].values()]
    missed = [m for m in result["moves"] if m["seat"] == "p2" and 7 <= m["ply"] <= 12]
    assert missed and all(not m["rated"] and m["not_estimated"] == SAMPLING_FAILED for m in missed)
    assert any(m["rated"] for m in result["moves"] if m["seat"] == "p2")
    assert result["accuracy"]["p2"] is not None
    for language in ("en", "ja", "ru"):  # said in every language of the site
        assert render(msg(SAMPLING_FAILED), language) != SAMPLING_FAILED


def test_a_cloak_and_dagger_own_chance_clusters_its_worlds_by_lineage():
    """A seat's carried worlds descend from a few dealt from scratch (their lineages): its
    own chance's error is the cluster-robust one over them, never that of 96 independent
    playouts."""
    cloak = get_game("cloak-and-dagger")
    log = play(cloak.id, 5, ["greedy", "greedy", "greedy"], max_actions=20)
    st = replay(log).states()
    ply, _action, state = list(st)[-1]
    seat = "p1"
    found = Analyst(cloak, 8, seed=4).own_chance(state, seat, ply)
    again = Analyst(cloak, 8, seed=4)
    samples: list[float] = []
    lineage: list = []
    for batch in range(ai_of(cloak).analysis_own_batches):
        worlds = again.worlds(state, seat, ply, None, batch)
        purpose = "chance" if batch == 0 else ("chance", batch)
        samples += again.scores(state, seat, [seat], ply, None, purpose, worlds, own=True)[0]
        lineage += again.clusters(seat, batch)
    assert found == clustered(samples, lineage) and found.n == 32
    assert len(set(lineage)) < len(lineage) and found.se >= estimate(samples).se
    # Cryptid's worlds are dealt apart: no clusters
    cryptid = Analyst(CRYPTID, 4, seed=1)
    _ply, _action, state = list(replay(play(CRYPTID.id, 1, ["greedy", "greedy"])).states())[6]
    cryptid.worlds(state, "cryptid", 6)
    assert cryptid.clusters("cryptid", 0) is None


def test_the_search_run_again_gives_each_move_found_its_share(monkeypatch):
    """Cloak & Dagger's best move is searched four times, over four batches of worlds: two
    moves found three times and once, and the first search's runner-up never; each move's
    share is its share of the searches under a uniform prior (Laplace's rule)."""
    from engine.ai.search import Search

    cloak = get_game("cloak-and-dagger")
    assert ai_of(cloak).analysis_searches_again == 3
    log = play(cloak.id, 5, ["greedy", "greedy", "greedy"], max_actions=20)
    state = [s for _p, _a, s in replay(log).states()][12]
    seat = cloak.to_act(state)[0]
    _decider, actions = ai_of(cloak).decision(state)
    a, b, c = actions[:3]
    found_in = iter([a, b, a, a])
    used: list[int] = []

    def decide(self, state, viewer, rng, opening=None, worlds=None):
        used.append(id(worlds(None)))
        self.runner_up = c if len(used) == 1 else b
        return next(found_in)

    monkeypatch.setattr(Search, "decide", decide)
    analyst = Analyst(cloak, 6, seed=2)
    first = analyst.worlds(state, seat, 11)
    moves, shares, searches = analyst.searched(state, seat, 12, None, first)
    assert moves == [a, b, c] and searches == 4
    assert shares == [(0, 4 / 7), (1, 2 / 7), (2, 1 / 7)]
    assert len(set(used)) == 4  # each search over a batch of worlds of its own


def test_the_same_cloak_and_dagger_log_budget_and_seed_give_the_same_analysis():
    cloak = get_game("cloak-and-dagger")
    log = play(cloak.id, 7, ["greedy", "random", "greedy"], max_actions=16)
    one = analyse(replay(log), budget=4, seed=3)
    assert analyse(replay(log), budget=4, seed=3) == one
    assert any(m["rated"] for m in one["moves"])


def test_a_game_that_runs_no_search_again_measures_against_the_search_runner_up_too(monkeypatch):
    """Mister X keeps one search: its move is the drop's first reference, and its runner-up
    a rival by Laplace's rule over that one search (2/3 and 1/3)."""
    from engine.ai.search import Search

    assert ai_of(MISTER_X).analysis_searches_again == 0
    log = play(MISTER_X.id, 5, ["greedy"] * 6, max_actions=12)
    state = [s for _p, _a, s in replay(log).states()][8]
    seat = MISTER_X.to_act(state)[0]
    _decider, actions = ai_of(MISTER_X).decision(state)
    calls: list[int] = []

    def decide(self, state, viewer, rng, opening=None, worlds=None):
        calls.append(1)
        self.runner_up = actions[1]
        return actions[0]

    monkeypatch.setattr(Search, "decide", decide)
    analyst = Analyst(MISTER_X, 6, seed=2)
    first = analyst.worlds(state, seat, 7)
    found, shares, searches = analyst.searched(state, seat, 8, None, first)
    assert found == [actions[0], actions[1]] and searches == 1
    assert shares == [(0, pytest.approx(2 / 3)), (1, pytest.approx(1 / 3))]
    assert calls == [1]
