"""Our own Plackett–Luce update (tournaments/rating_model.py, docs/rules.md "Ratings"
rules 2 and 5): openskill's numbers on a field without ties, a tie rated as the average of
the places it spans, never below someone who finished behind it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from tournaments import rating_model
from tournaments.models import shown_rating
from tournaments.rating_model import Prior, rate

LIBRARY = PlackettLuce()


def _library(field: list[Prior], ranks: list[int]) -> list[tuple[float, float]]:
    teams = [[LIBRARY.rating(mu=p.mu, sigma=p.sigma)] for p in field]
    return [(r.mu, r.sigma) for (r,) in LIBRARY.rate(teams, ranks=[float(x) for x in ranks])]


def test_the_model_has_openskills_parameters() -> None:
    assert (LIBRARY.mu, LIBRARY.sigma) == (rating_model.MU, rating_model.SIGMA)
    assert (
        LIBRARY.beta,
        LIBRARY.kappa,
        LIBRARY.tau,
    ) == (rating_model.BETA, rating_model.KAPPA, rating_model.TAU)


@pytest.mark.parametrize("seed", range(6))
def test_without_ties_the_numbers_are_the_librarys(seed: int) -> None:
    rng = random.Random(seed)
    n = [2, 3, 7, 40, 150, 400][seed]
    field = [Prior(mu=rng.uniform(5, 45), sigma=rng.uniform(0.5, 25 / 3)) for _ in range(n)]
    ranks = list(range(1, n + 1))
    rng.shuffle(ranks)
    ours = rate(field, ranks)
    for mine, (mu, sigma) in zip(ours, _library(field, ranks), strict=True):
        assert mine.mu == pytest.approx(mu, rel=1e-12, abs=1e-9)
        assert mine.sigma == pytest.approx(sigma, rel=1e-12, abs=1e-9)


def test_a_tie_for_first_rates_above_the_third_place() -> None:
    # The standings 1 = 1, 3, 4 with newcomers: openskill gave the tied winners
    # 1046 and the third 1057. A tie is the average of 1st and 2nd place.
    newcomers = [Prior(mu=25.0, sigma=25 / 3)] * 4
    tied = [shown_rating(p.mu - 3 * p.sigma) for p in rate(newcomers, [1, 1, 3, 4])]
    untied = [shown_rating(p.mu - 3 * p.sigma) for p in rate(newcomers, [1, 2, 3, 4])]
    assert [shown_rating(mu - 3 * sigma) for mu, sigma in _library(newcomers, [1, 1, 3, 4])] == [
        1046,
        1046,
        1057,
        908,
    ]
    assert tied[0] == tied[1] > tied[2] == untied[2] > tied[3] == untied[3]
    mus = [p.mu for p in rate(newcomers, [1, 1, 3, 4])]
    first, second = (p.mu for p in rate(newcomers, [1, 2, 3, 4])[:2])
    assert mus[0] == pytest.approx((first + second) / 2, abs=1e-12)


def test_a_tie_of_everyone_moves_nobodys_mean() -> None:
    field = [Prior(mu=25.0, sigma=25 / 3)] * 5
    after = rate(field, [1] * 5)
    assert all(p.mu == pytest.approx(25.0, abs=1e-12) for p in after)
    assert all(p.sigma < 25 / 3 for p in after)


def test_a_tied_entrant_stronger_than_the_group_stays_finite() -> None:
    # The bottom group tied, one of them far stronger: its clamped stages stay p <= 1.
    field = [Prior(mu=20.0, sigma=3.0), Prior(mu=45.0, sigma=2.0), Prior(mu=5.0, sigma=2.0)]
    after = rate(field, [1, 2, 2])
    assert all(0 < p.sigma <= 3.01 for p in after)
    assert after[1].mu < 45.0 < after[1].mu + 5


def test_one_entrant_is_no_tournament() -> None:
    with pytest.raises(ValueError):
        rate([Prior(mu=25.0, sigma=1.0)], [1])
    with pytest.raises(ValueError):
        rate([Prior(mu=25.0, sigma=1.0)] * 2, [1])


@st.composite
def standings(draw: st.DrawFn) -> list[int]:
    """Competition ranks ("1, 2, 2, 4") of a random field with random ties, best first."""
    sizes = draw(st.lists(st.integers(1, 6), min_size=1, max_size=12))
    if sum(sizes) < 2:
        sizes.append(1)
    ranks: list[int] = []
    for size in sizes:
        ranks.extend([len(ranks) + 1] * size)
    return ranks


@settings(max_examples=150, deadline=None)
@given(
    ranks=standings(),
    mu=st.floats(0, 50),
    sigma=st.floats(0.3, 25 / 3),
    shuffle=st.randoms(use_true_random=False),
)
def test_the_change_never_rises_as_the_place_gets_worse(
    ranks: list[int], mu: float, sigma: float, shuffle: random.Random
) -> None:
    order = list(range(len(ranks)))
    shuffle.shuffle(order)
    given_ranks = [ranks[i] for i in order]
    after = rate([Prior(mu=mu, sigma=sigma)] * len(ranks), given_ranks)
    by_place = sorted(zip(given_ranks, after, strict=True), key=lambda x: x[0])
    mu_change = [p.mu - mu for _, p in by_place]
    shown_change = [(p.mu - 3 * p.sigma) - (mu - 3 * sigma) for _, p in by_place]
    for k in range(1, len(by_place)):
        assert mu_change[k] <= mu_change[k - 1] + 1e-9
        assert shown_change[k] <= shown_change[k - 1] + 1e-9
        if by_place[k][0] == by_place[k - 1][0]:
            # Equal results, equal beliefs: an equal outcome.
            assert mu_change[k] == pytest.approx(mu_change[k - 1], abs=1e-9)
            assert shown_change[k] == pytest.approx(shown_change[k - 1], abs=1e-9)
