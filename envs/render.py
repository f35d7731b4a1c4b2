"""Pictures of the table: ``render_mode="rgb_array"`` returns one as a numpy array.

``table_image(state, viewer)`` draws what ``viewer`` sees, with Pillow: the felt, each
seat's cards (others' face-down cards as card backs, the viewer's own face-down cards
on a tinted face), stacks, chips in the pot and each seat's bet this street, the
community cards (Chowaha's layout as its four boards: three flops, two turns, a
river), whose turn it is, the street and the last action as the viewer's hand history
words it. ``viewer`` is a seat, ``-1`` (the public view: no face-down card at all) or
``None`` (every card). A secret (a Cowpie split, a declaration, a Cowboy discard) is
never drawn for a viewer who may not know it, because the picture is built only from
what that viewer sees: face-up cards, cards shown in this deal, the viewer's own
cards and the events its history shows.

Frames are deterministic (nothing random; the DejaVu font that matplotlib ships,
Pillow's own font without it) and all have one size, so video recorders and vector
envs can stack them. The felt, the fonts and the card faces are drawn once and
cached; a frame costs about 2.5 ms of CPU (``python -m benchmarks.bench_render``).
"""

from __future__ import annotations

import functools
import importlib.util
import math
from collections.abc import Iterable
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from envs.engine.cards import JOKER, JOKER_NAME, RANKS, SUIT_SYMBOLS
from envs.engine.events import EventKind
from envs.engine.history import _event_line  # the history's own words: the picture says no more than it
from envs.engine.state import State

WIDTH, HEIGHT = 800, 540
CARD_W, CARD_H = 26, 36
CARD_STEP = 20  # horizontal distance between a seat's cards when there is room
BOX_H = 74  # a seat: name line, cards, chips line
BACKGROUND = (24, 28, 36)
FELT, FELT_EDGE = (28, 102, 60), (92, 58, 30)
TEXT, DIM_TEXT, HIGHLIGHT = (236, 236, 236), (150, 150, 150), (255, 208, 64)
SUIT_COLORS = ((20, 130, 40), (30, 80, 200), (200, 30, 30), (20, 20, 20))  # four colours: c d h s
JOKER_COLOR = (130, 40, 170)  # no suit's colour: the joker reads as no ordinary card
CHIP_COLORS = ((230, 60, 50), (40, 90, 210), (30, 30, 30), (240, 240, 240))
ACTION_KINDS = frozenset(
    {"action", "ante", "blind", "declare", "reveal", "split", "split_reveal", "stay", "draw", "award", "dummy"}
)
# Chowaha's layout positions (envs.variants.chowaha.LAYOUT order) on a 5 x 3 grid of card
# slots: flops in columns 0-2, turns between the rows they join, the river on the right,
# so each board (a flop, a turn and the river) is a line of cards.
CHOWAHA_SLOTS = (
    *((col, row) for row in (0.0, 1.0, 2.0) for col in (0, 1, 2)),
    (3, 0.5),
    (3, 1.5),
    (4, 1.0),
)


@functools.cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans from matplotlib's data (it has the suit symbols), else Pillow's own."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is not None and spec.submodule_search_locations:
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
        path = Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "ttf" / name
        if path.is_file():
            return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size)


@functools.cache
def card_image(card: int | None, down: bool = False, dim: bool = False) -> Image.Image:
    """One card (RGBA, clear outside its rounded corners): a face (``down``: tinted, a
    face-down card its owner sees) or, for ``None``, a back. ``dim``: a folded seat's."""
    image = Image.new("RGB", (CARD_W, CARD_H), FELT)
    draw = ImageDraw.Draw(image)
    box = (0, 0, CARD_W - 1, CARD_H - 1)
    if card is None:
        draw.rounded_rectangle(box, 3, fill=(40, 60, 150))
        for x in range(-CARD_H, CARD_W, 5):
            draw.line((x + 3, 3, x + CARD_H - 3, CARD_H - 3), fill=(70, 95, 190))
        draw.rounded_rectangle(box, 3, outline=(230, 230, 230))
    elif card == JOKER:  # the joker of the wild-card house rules: "Jk" and a star, in purple
        draw.rounded_rectangle(box, 3, fill=(214, 226, 244) if down else (250, 250, 250), outline=(90, 90, 90))
        draw.text((CARD_W // 2, 10), JOKER_NAME, fill=JOKER_COLOR, font=font(13, bold=True), anchor="mm")
        draw.text((CARD_W // 2, 26), "\u2605", fill=JOKER_COLOR, font=font(15), anchor="mm")
    else:
        rank, suit = divmod(card, 4)
        draw.rounded_rectangle(box, 3, fill=(214, 226, 244) if down else (250, 250, 250), outline=(90, 90, 90))
        color = SUIT_COLORS[suit]
        draw.text((CARD_W // 2, 10), RANKS[rank], fill=color, font=font(15, bold=True), anchor="mm")
        draw.text((CARD_W // 2, 26), SUIT_SYMBOLS[suit], fill=color, font=font(15), anchor="mm")
    if dim:
        image = Image.blend(image, Image.new("RGB", image.size, (60, 60, 66)), 0.55)
    image.putalpha(_card_mask())
    return image


@functools.cache
def _card_mask() -> Image.Image:
    mask = Image.new("L", (CARD_W, CARD_H), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), 3, fill=255)
    return mask


@functools.cache
def empty_slot() -> Image.Image:
    """A layout position not turned yet."""
    image = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), 3, outline=(70, 140, 95, 255))
    return image


@functools.cache
def seat_layout(num_players: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """Box width and the top-left corner of each seat's box, by position around the
    table (position 0 at the bottom centre, then clockwise: the next seat to act sits
    on the left). Boxes share the room evenly; a seat's cards overlap to fit."""
    room = 2 * math.pi * math.sqrt(((WIDTH / 2 - 80) ** 2 + (HEIGHT / 2 - 60) ** 2) / 2) / num_players
    box_w = int(min(160, max(84, room - 8)))
    rx, ry = WIDTH / 2 - box_w / 2 - 6, HEIGHT / 2 - BOX_H / 2 - 26
    corners = []
    for k in range(num_players):
        angle = math.pi / 2 + 2 * math.pi * k / num_players
        x = WIDTH / 2 + rx * math.cos(angle) - box_w / 2
        y = HEIGHT / 2 - 8 + ry * math.sin(angle) - BOX_H / 2
        corners.append((round(x), round(y)))
    return box_w, tuple(corners)


@functools.cache
def felt() -> Image.Image:
    """The empty table, drawn once."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    cx, cy, rx, ry = WIDTH / 2, HEIGHT / 2 - 8, WIDTH / 2 - 110, HEIGHT / 2 - 92
    draw.ellipse((cx - rx - 10, cy - ry - 10, cx + rx + 10, cy + ry + 10), fill=FELT_EDGE)
    draw.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=FELT)
    return image


def table_image(st: State, viewer: int | None, *, title: str = "") -> np.ndarray:
    """The table as ``viewer`` sees it: an ``(HEIGHT, WIDTH, 3)`` uint8 RGB array."""
    image = felt().copy()
    draw = ImageDraw.Draw(image)
    shown = shown_cards(st)
    box_w, corners = seat_layout(st.n)
    anchor = viewer if viewer is not None and viewer >= 0 else 0
    for seat in range(st.n):
        corner = corners[(seat - anchor) % st.n]
        visible = [up or viewer is None or viewer == seat or card in shown for card, up in _hand(st, seat)]
        _draw_seat(image, draw, st, seat, corner, box_w, visible, viewer)
    _draw_middle(image, draw, st)
    _draw_header(draw, st, viewer, title)
    _draw_footer(draw, st, viewer)
    return to_array(image)


def to_array(image: Image.Image) -> np.ndarray:
    """A writable ``(H, W, 3)`` uint8 copy (``np.array(image)`` takes four times longer)."""
    return np.frombuffer(bytearray(image.tobytes()), np.uint8).reshape(image.height, image.width, 3)


def _hand(st: State, seat: int) -> Iterable[tuple[int, bool]]:
    return zip(st.cards[seat], st.up[seat], strict=True)


def shown_cards(st: State) -> set[int]:
    """Cards shown at a showdown of the current deal (a new Cowboy deal, a ``shuffle``
    event, reshuffles every card, so earlier shows no longer count)."""
    shown: set[int] = set()
    for e in st.events:
        if e.kind == EventKind.SHOW:
            shown.update(e.cards)
        elif e.kind == EventKind.SHUFFLE:
            shown.clear()
    return shown


def _draw_seat(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    st: State,
    seat: int,
    corner: tuple[int, int],
    box_w: int,
    visible: list[bool],
    viewer: int | None,
) -> None:
    x, y = corner
    folded, acting = st.folded[seat], seat == st.current_seat
    outline, width = (HIGHLIGHT, 3) if acting else ((90, 90, 90), 1)
    draw.rounded_rectangle((x, y, x + box_w, y + BOX_H), 6, fill=(44, 44, 52) if folded else (16, 52, 32))
    draw.rounded_rectangle((x, y, x + box_w, y + BOX_H), 6, outline=outline, width=width)
    name = f"player_{seat}" + (" (you)" if viewer == seat else "")
    draw.text((x + 6, y + 4), name, fill=HIGHLIGHT if acting else TEXT, font=font(12, bold=True))
    if seat == st.button:
        _dealer_button(draw, x + box_w - 12, y + 11)
    if folded:
        draw.text((x + box_w - 24, y + 5), "folded", fill=DIM_TEXT, font=font(11), anchor="ra")
    cards = list(_hand(st, seat))
    for i, ((card, up), seen) in enumerate(zip(cards, visible, strict=True)):
        face = card_image(card if seen else None, down=seen and not up, dim=folded)
        image.paste(face, card_corner(corner, box_w, i, len(cards)), face)
    _draw_chip_line(draw, st, seat, x, y + BOX_H - 16, box_w)


def card_corner(box: tuple[int, int], box_w: int, index: int, count: int) -> tuple[int, int]:
    """Top-left pixel of a seat's ``index``-th card of ``count``, the cards overlapping
    as much as the box needs."""
    step = CARD_STEP if count < 2 else min(CARD_STEP, (box_w - 12 - CARD_W) / (count - 1))
    return box[0] + 6 + round(index * step), box[1] + 20


def _draw_chip_line(draw: ImageDraw.ImageDraw, st: State, seat: int, x: int, y: int, box_w: int) -> None:
    """Chips behind (at the end: with the winnings; Cowboy's unlimited stacks: the net
    so far), chips in the pot, and at the end the seat's result; a bet this street as
    a stack of chips by the box."""
    wide = box_w >= 140
    stack = st.stack[seat] if st.payoff is None else st.start_stack[seat] + st.payoff[seat]  # winnings included
    if st.unlimited[seat]:
        behind = f"net {stack - st.start_stack[seat]:+d}"
    else:
        behind = f"stack {stack}" if wide else str(stack)
    draw.text((x + 6, y), behind, fill=TEXT, font=font(11))
    if st.payoff is not None:
        result = st.payoff[seat]
        color = (120, 230, 120) if result > 0 else ((240, 120, 110) if result < 0 else TEXT)
        draw.text((x + box_w - 6, y), f"{result:+d}", fill=color, font=font(11, True), anchor="ra")
        return
    draw.text(
        (x + box_w - 6, y), f"{'in pot' if wide else 'in'} {st.committed[seat]}", fill=TEXT, font=font(11), anchor="ra"
    )
    if st.contrib[seat] > 0:
        top = y - BOX_H + 16
        _chips(draw, x + box_w // 2, top - 14 if top > HEIGHT / 2 else top + BOX_H + 14, st.contrib[seat])


def _dealer_button(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    draw.ellipse((cx - 8, cy - 8, cx + 8, cy + 8), fill=(250, 250, 250), outline=(40, 40, 40))
    draw.text((cx, cy), "D", fill=(20, 20, 20), font=font(10, bold=True), anchor="mm")


def _chips(draw: ImageDraw.ImageDraw, cx: float, cy: float, amount: int) -> None:
    """A small stack of chips (more chips, a taller stack) and the amount."""
    count = min(6, 1 + int(math.log2(max(1, amount))))
    for i in range(count):
        top = cy - 3 * i
        draw.ellipse((cx - 9, top - 5, cx + 9, top + 5), fill=CHIP_COLORS[i % 4], outline=(250, 250, 250))
    draw.text((cx + 13, cy), str(amount), fill=TEXT, font=font(12, bold=True), anchor="lm")


def _draw_middle(image: Image.Image, draw: ImageDraw.ImageDraw, st: State) -> None:
    cx, cy = WIDTH // 2, HEIGHT // 2 - 8
    if st.playing.variant.family == "chowaha":
        left, top = cx - (5 * (CARD_W + 6)) // 2, cy - 62
        for position, (col, row) in enumerate(CHOWAHA_SLOTS):
            face = card_image(st.community[position]) if position < len(st.community) else empty_slot()
            image.paste(face, (left + col * (CARD_W + 6), round(top + row * (CARD_H + 4))), face)
        pot_y = cy + 72
    else:
        for i, card in enumerate(st.community):
            face = card_image(card)
            image.paste(face, (cx - CARD_W // 2 + i * (CARD_W + 4), cy + 8), face)
        pot_y = cy - 14
    draw.text((cx - 16, pot_y), "pot", fill=DIM_TEXT, font=font(12), anchor="rm")
    _chips(draw, cx, pot_y, st.pot())


def _draw_header(draw: ImageDraw.ImageDraw, st: State, viewer: int | None, title: str) -> None:
    draw.text((10, 8), title or st.title, fill=TEXT, font=font(14, bold=True))
    draw.text((10, 28), street_text(st), fill=DIM_TEXT, font=font(12))
    who = "every card" if viewer is None else ("public view" if viewer < 0 else f"seen by player_{viewer}")
    draw.text((WIDTH - 10, 8), who, fill=DIM_TEXT, font=font(12), anchor="ra")


def street_text(st: State) -> str:
    """Where the hand is, as the header says it: the street, a Cowboy game's deal and
    phase, or "hand over"."""
    if st.is_over:
        return "hand over"
    if st.playing.variant.episode == "game":  # the Cowboy family: one game of many deals
        game = st.family
        return f"deal {game.deal}" + (f", {game.phase}" if game.phase else "")
    return st.street_label


def _draw_footer(draw: ImageDraw.ImageDraw, st: State, viewer: int | None) -> None:
    last = last_action(st, viewer)
    if st.is_over:
        now = "hand over: " + ", ".join(f"player_{s} {p:+d}" for s, p in enumerate(st.payoffs()))
    else:
        now = f"to act: player_{st.current_seat}"
    right = draw.textlength(now, font=font(12, bold=True))
    draw.text((WIDTH - 10, HEIGHT - 22), now, fill=HIGHLIGHT, font=font(12, bold=True), anchor="ra")
    if last:
        draw.text((10, HEIGHT - 22), _fit(draw, f"last: {last}", WIDTH - 40 - right), fill=TEXT, font=font(12))


def _fit(draw: ImageDraw.ImageDraw, text: str, width: float) -> str:
    """``text`` cut (with an ellipsis) to ``width`` pixels."""
    if draw.textlength(text, font=font(12)) <= width:
        return text
    while text and draw.textlength(text + "…", font=font(12)) > width:
        text = text[:-1]
    return text + "…"


def last_action(st: State, viewer: int | None) -> str:
    """The latest action ``viewer`` saw, in its hand history's words ("" if none)."""
    for e in reversed(st.events):
        if e.kind in ACTION_KINDS:
            line = _event_line(e, viewer)
            if line:
                return line
    return ""
