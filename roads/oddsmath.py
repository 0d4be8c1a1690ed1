"""The exact joint distribution of the next round, in integers: the kernel of :mod:`roads.odds`.

A shoe is reduced to ten point classes with ``n[v]`` cards worth ``v`` (``N`` cards in all).
Every way the next round is dealt is an ordered sequence of four to six classes, weighed by the
number of ways to take that many distinct cards of those classes: a falling product of the
counts, which depends only on how many cards of each class the sequence uses, not on their order.

So the fifth and sixth cards can be taken first. With ``q_x[p, b]`` the weight of the first four
cards (P, B, P, B) whose two-card totals are Player ``p``, Banker ``b``, dealt from counts ``x``:

- a four-card end weighs ``q_n[p, b]``;
- a five-card end with a fifth card ``e`` weighs ``n[e] * q_{n - e}[p, b]``;
- a six-card end with cards ``e`` then ``f`` weighs
  ``n[e] * (n[f] - [e = f]) * q_{n - e - f}[p, b]``.

And ``q_x`` has a closed form in 10 x 10 matrices. With ``M[a, p] = x[p - a] - [2a = p]`` (how
many cards complete a card ``a`` to a total ``p``, without reusing it; indices mod 10) and
``T[p] = sum_a x[a] M[a, p]`` (the ordered two-card hands of total ``p``):

    q_x = T T^T + 2 diag(T) - 4 M^T diag(x) M

(drawing Banker's two cards after Player's ``a`` and ``c`` leaves ``T[b]`` less ``2 M[a, b]`` and
``2 M[c, b]``, plus 2 when ``a + c = b`` as well). The 66 count vectors (``n``, ``n - e``,
``n - e - f`` for ``e <= f``) are one batch of 10 x 10 matrix products (``T T^T`` folded in: with
``J`` all ones, ``T T^T - 4 M^T diag(x) M = (J diag(x) M - 4 M)^T diag(x) M``), and each end is
added to its cell of the joint distribution by one ``bincount``.

Every weight is an integer. Over the common denominator ``N (N-1) ... (N-5)`` every sum is one
too, below ``2**53`` for shoes up to :data:`EXACT_FLOAT_CARDS` cards (eight decks are 416), so
float64 carries them exactly; bigger shoes are summed in Python integers (slower, as exact).

Why numpy and not a compiled kernel: the same sums written as loops for numba 0.68 (tried in
November 2026, equal to this kernel on 2,000 compositions) took 16 us a composition against this
one's 40, but numba and llvmlite install about 208 MB, and a process's first call took 0.15 s
with numba's cache and 0.7 s without: 24 us of a write's plan of about 220 did not earn that.
"""

from __future__ import annotations

import numpy as np

from roads.rules import banker_draws, player_draws

#: The largest shoe whose sums float64 holds exactly: every partial sum stays below
#: ``N**6 * (1 + 4 / N)`` (the outer product ``T T^T`` and four times ``M^T diag(x) M``, times a
#: row's factor of at most ``N**2``), which is below ``2**53`` up to here.
EXACT_FLOAT_CARDS = 448

_CLASSES = np.arange(10)
#: ``_CIRC[a, p] = (p - a) mod 10``: the class that completes ``a`` to the total ``p``.
_CIRC = (_CLASSES[None, :] - _CLASSES[:, None]) % 10
#: ``_DOUBLE[a, p] = [2a = p mod 10]``: ``a`` completed by itself, one card fewer to take.
_DOUBLE = (2 * _CLASSES[:, None] % 10 == _CLASSES[None, :]).astype(np.int64)

#: The count vectors whose four-card weights are needed: the shoe less the cards drawn first.
_ROWS: tuple[tuple[int, ...], ...] = (
    (),
    *((e,) for e in range(10)),
    *((e, f) for e in range(10) for f in range(e, 10)),
)
_ROW = {row: index for index, row in enumerate(_ROWS)}
_TAKEN = np.zeros((len(_ROWS), 10), dtype=np.int64)
for _index, _row in enumerate(_ROWS):
    for _card in _row:
        _TAKEN[_index, _card] += 1
#: The kernel's tables are built from ``(n[0], ..., n[9], N - 4)`` less ``k`` (k = 0..3): 4 x 11.
_LESS = np.arange(4)[:, None]
#: Where ``N - 4`` stands in a row of that table.
_REST = 10
#: ``M`` of each row is ``n[_CIRC]`` less this, at most 3 (two cards taken and the double): so
#: ``M`` is one ``take`` from the table, at ``k * 11 + class``.
_M_OFFSET = _TAKEN[:, _CIRC] + _DOUBLE[None]
_M_INDEX = (_M_OFFSET * 11 + _CIRC[None]).astype(np.intp)


#: The cells of :func:`drawn_weights`: which hands drew a third card (``drawn``: 2 when Player
#: did, plus 1 when Banker did) * 200 + natural * 100 + Player's final total * 10 + Banker's.
DRAWN_CELLS = 800


def _ends() -> tuple[np.ndarray, np.ndarray]:
    """For every way a round ends: which entry of the rows' ``q`` it weighs (row * 100 + p * 10
    + b) and which cell of the drawn distribution it adds to (:data:`DRAWN_CELLS`)."""
    source, cell = [], []

    def end(row: tuple[int, ...], group: int, drawn: int, to: int) -> None:
        # ``drawn``: 2 when Player took a third card, plus 1 when Banker did.
        source.append(_ROW[row] * 100 + group)
        cell.append(drawn * 200 + to)

    for player in range(10):
        for banker in range(10):
            group = player * 10 + banker
            if player >= 8 or banker >= 8:
                end((), group, 0, 100 + group)
            elif player_draws(player):
                for e in range(10):
                    final = (player + e) % 10
                    if banker_draws(banker, e):
                        for f in range(10):
                            end(tuple(sorted((e, f))), group, 3, final * 10 + (banker + f) % 10)
                    else:
                        end((e,), group, 2, final * 10 + banker)
            elif banker_draws(banker, None):
                for f in range(10):
                    end((f,), group, 1, player * 10 + (banker + f) % 10)
            else:
                end((), group, 0, group)
    return np.array(source), np.array(cell)


_SOURCE, _CELL = _ends()
#: Indexes into the 33 x 44 products of the table's first three rows and all four (flat):
#: ``diag(x) M`` of each row, ``x[a] = n[a] - k`` (k = 0..2 cards of class ``a`` taken) times
#: ``M[a, p]``; and each row's factor, (N-4)(N-5) for four cards (over the common denominator),
#: n[e] (N-5) for five, n[e] (n[f] - [e = f]) for six.
_XM_INDEX = ((_TAKEN[:, :, None] * 11 + _CLASSES[None, :, None]) * 44 + _M_INDEX).astype(np.intp)
_FACTOR_INDEX = np.array(
    [_REST * 44 + 11 + _REST]
    + [e * 44 + 11 + _REST for (e,) in _ROWS[1:11]]
    + [e * 44 + (e == f) * 11 + f for e, f in _ROWS[11:]],
    dtype=np.intp,
)
#: Sums a matrix's rows: in float64, and in Python integers (int64 ones, which keep them exact).
_ONES = np.ones((1, 10))
_ONES_EXACT = np.ones((1, 10), dtype=np.int64)


def joint_weights(points: tuple[int, ...]) -> tuple[np.ndarray, int]:
    """The next round's joint distribution over ``(natural, player_total, banker_total)`` as 200
    integer weights (flat, ``natural * 100 + player * 10 + banker``) and their sum, the number of
    ordered ways to take six distinct cards from the shoe, ``N (N-1) ... (N-5)``: the weights of
    :func:`drawn_weights`, whoever drew."""
    weights, denominator = drawn_weights(points)
    return weights.reshape(4, 200).sum(axis=0), denominator


def drawn_weights(points: tuple[int, ...]) -> tuple[np.ndarray, int]:
    """The next round's joint distribution over ``(drawn, natural, player_total,
    banker_total)`` as :data:`DRAWN_CELLS` integer weights (``drawn``: which hands took a third
    card, 2 Player plus 1 Banker) and their sum, the number of ordered ways to take six distinct
    cards from the shoe, ``N (N-1) ... (N-5)``. Float64 for shoes up to
    :data:`EXACT_FLOAT_CARDS` cards, Python integers (dtype object) beyond; exact either way.
    Needs at least six cards."""
    total = sum(points)
    if total < 6:
        raise ValueError(f"a round needs up to 6 cards; the shoe holds {total}")
    denominator = total * (total - 1) * (total - 2) * (total - 3) * (total - 4) * (total - 5)
    dtype = np.float64 if total <= EXACT_FLOAT_CARDS else object
    return _kernel(np.array((*points, total - 4), dtype=dtype)), denominator


def _kernel(n: np.ndarray) -> np.ndarray:
    """The :data:`DRAWN_CELLS` weights from ``n``: the counts per class, then ``N - 4``."""
    less = n - _LESS
    # Each array is built whole by one take from a small table (contiguous, no broadcast):
    # diag(x) M and the rows' factors from the products of (n - k)[a] and (n - k')[c], -4 M from
    # -4 (n - k).
    products = np.multiply.outer(less[:3].ravel(), less.ravel())
    factor = products.take(_FACTOR_INDEX)
    xm = products.take(_XM_INDEX)
    # T = sum over a of x[a] M[a, p]: (rows, 1, 10)
    two = np.matmul(_ONES_EXACT if n.dtype == object else _ONES, xm)
    # T T^T = (diag(x) M)^T J diag(x) M with J all ones, so q without its diagonal term is
    # (-4 M + J diag(x) M)^T diag(x) M, and J diag(x) M is T in every row: one product.
    left = (-4 * less).take(_M_INDEX)
    left += two
    q = np.matmul(left.transpose(0, 2, 1), xm).reshape(len(_ROWS), 100)
    q[:, ::11] += 2 * two[:, 0]
    q *= factor[:, None]  # each row's q times its factor: the weight of each of its ends
    entries = q.take(_SOURCE)
    if n.dtype == object:
        joint = np.zeros(DRAWN_CELLS, dtype=object)
        np.add.at(joint, _CELL, entries)
        return joint
    return np.bincount(_CELL, weights=entries, minlength=DRAWN_CELLS)
