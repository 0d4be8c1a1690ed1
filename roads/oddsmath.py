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
``n - e - f`` for ``e <= f``) are one batch of 10 x 11 by 11 x 10 matrix products, and each end
is added to its cell of the joint distribution by one ``bincount``.

Every weight is an integer. Over the common denominator ``N (N-1) ... (N-5)`` every sum is one
too, below ``2**53`` for shoes up to :data:`EXACT_FLOAT_CARDS` cards (eight decks are 416), so
float64 carries them exactly; bigger shoes are summed in Python integers (slower, as exact).
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
#: ``M`` of each row is ``n[_CIRC]`` less this, at most 3 (two cards taken and the double): so
#: ``M`` is one ``take`` from the 4 x 10 table ``n - k`` (k = 0..3), at ``k * 10 + class``.
_M_OFFSET = _TAKEN[:, _CIRC] + _DOUBLE[None]
_M_INDEX = (_M_OFFSET * 10 + _CIRC[None]).astype(np.intp)
_LESS = np.arange(4)[:, None]
# A row's factor is ``_FACTOR_A * (_FACTOR_B - _FACTOR_SAME)`` with indexes into
# ``(n[0], ..., n[9], N - 4, N - 5)``: (N-4)(N-5) for four cards (over the common denominator),
# n[e] (N-5) for five, n[e] (n[f] - [e = f]) for six.
_FACTOR_A = np.array([10] + [row[0] for row in _ROWS[1:]])
_FACTOR_B = np.array([11] + [11] * 10 + [row[1] for row in _ROWS[11:]])
_FACTOR_SAME = np.array([0] * 11 + [int(row[0] == row[1]) for row in _ROWS[11:]])


def _ends() -> tuple[np.ndarray, np.ndarray]:
    """For every way a round ends: which entry of the rows' ``q`` it weighs (row * 100 + p * 10
    + b; and when p == b also the diagonal term, 6600 + row * 10 + p) and which cell of the joint
    distribution it adds to (natural * 100 + Player's final total * 10 + Banker's)."""
    source, cell = [], []

    def end(row: tuple[int, ...], group: int, to: int) -> None:
        source.append(_ROW[row] * 100 + group)
        cell.append(to)
        if group % 11 == 0:  # p == b: the diagonal term, kept after the rows' q
            source.append(len(_ROWS) * 100 + _ROW[row] * 10 + group // 11)
            cell.append(to)

    for player in range(10):
        for banker in range(10):
            group = player * 10 + banker
            if player >= 8 or banker >= 8:
                end((), group, 100 + group)
            elif player_draws(player):
                for e in range(10):
                    final = (player + e) % 10
                    if banker_draws(banker, e):
                        for f in range(10):
                            end(tuple(sorted((e, f))), group, final * 10 + (banker + f) % 10)
                    else:
                        end((e,), group, final * 10 + banker)
            elif banker_draws(banker, None):
                for f in range(10):
                    end((f,), group, player * 10 + (banker + f) % 10)
            else:
                end((), group, group)
    return np.array(source), np.array(cell)


_SOURCE, _CELL = _ends()


def joint_weights(points: tuple[int, ...]) -> tuple[np.ndarray, int]:
    """The next round's joint distribution over ``(natural, player_total, banker_total)`` as 200
    integer weights (flat, ``natural * 100 + player * 10 + banker``) and their sum, the number of
    ordered ways to take six distinct cards from the shoe, ``N (N-1) ... (N-5)``. Float64 for
    shoes up to :data:`EXACT_FLOAT_CARDS` cards, Python integers (dtype object) beyond; exact
    either way. Needs at least six cards."""
    total = sum(points)
    if total < 6:
        raise ValueError(f"a round needs up to 6 cards; the shoe holds {total}")
    denominator = total * (total - 1) * (total - 2) * (total - 3) * (total - 4) * (total - 5)
    if total <= EXACT_FLOAT_CARDS:
        return _weights(np.array(points, dtype=np.float64), float(total)), denominator
    return _weights(np.array(points, dtype=object), total), denominator


def _weights(n: np.ndarray, total: float | int) -> np.ndarray:
    rows = len(_ROWS)
    x = n - _TAKEN  # each row's counts
    known = np.concatenate((n, (total - 4, total - 5)))
    factor = known[_FACTOR_A] * (known[_FACTOR_B] - _FACTOR_SAME)
    # left[k] = [M; T] and right[k] = [-4 diag(x) M; T] * factor, so that left^T right is the
    # row's q without its diagonal term, times the row's factor.
    left = np.empty((rows, 11, 10), dtype=n.dtype)
    right = np.empty((rows, 11, 10), dtype=n.dtype)
    m = (n - _LESS).take(_M_INDEX, out=left[:, :10])
    two = np.matmul(x[:, None, :], m, out=left[:, 10:])[:, 0]  # T: (rows, 10)
    np.multiply(two, factor[:, None], out=right[:, 10])
    np.multiply(m, (x * (-4 * factor)[:, None])[:, :, None], out=right[:, :10])
    # Every entry an end may weigh, in one array: the rows' q, then their diagonal terms.
    entries = np.empty(rows * 110, dtype=n.dtype)
    np.matmul(left.transpose(0, 2, 1), right, out=entries[: rows * 100].reshape(rows, 10, 10))
    np.multiply(two, 2 * factor[:, None], out=entries[rows * 100 :].reshape(rows, 10))
    ends = entries[_SOURCE]
    if n.dtype == object:
        joint = np.zeros(200, dtype=object)
        np.add.at(joint, _CELL, ends)
        return joint
    return np.bincount(_CELL, weights=ends, minlength=200)
