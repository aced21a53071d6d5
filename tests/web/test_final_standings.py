"""Once the game is over, every view of it opens with the final standings:
each player by name with their gold, the winner marked, and the tie-break
told when equal gold was put in order by the last race
(docs/rules-notes.md#the-end)."""

from __future__ import annotations

import html
import re

import pytest

from games.models import Seat
from games.narrate import colour_name
from tests.factories import started_game, tokens, with_gold
from tests.web.integrity_helpers import game_over

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished():
    """A three-player game played to its end."""
    return game_over()


def page_paths(game) -> dict[str, str]:
    return {"seat": f"/s/{tokens(game)[0]}/", "spectator": f"/g/{game.public_id}/"}


def main_of(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    page = response.content.decode()
    return page[page.index("<main>") : page.index("</main>")]


def standings_of(main: str) -> str:
    start = main.index('id="standings"')
    return main[start : main.index("</section>", start)]


def lines_of(section: str) -> list[str]:
    """Each standings line as a reader sees it, tags left out."""
    return [html.unescape(re.sub(r"<[^>]+>", "", item)) for item in re.findall(r"<li>(.*?)</li>", section)]


def names_of(game) -> dict[int, str]:
    return {seat.position: seat.name for seat in Seat.objects.filter(game=game)}


def listed_as(game) -> dict[int, str]:
    """Each player as a standings line starts: their colour in words (the
    chip's name, for whoever cannot tell the chip), then their name."""
    return {seat.position: f"{colour_name(seat.colour)} {seat.name}" for seat in Seat.objects.filter(game=game)}


def last_race_ranking(game) -> list[int]:
    return game.state["results"][-1]["ranking"]


def test_the_final_standings_are_the_first_section_of_the_seat_and_spectator_pages(client, finished):
    for path in page_paths(finished).values():
        main = main_of(client, path)
        assert main.index("<section") == main.index('<section class="box decide" id="standings"'), path
        assert main.index('id="standings"') < main.index("<svg"), "the board comes before the standings"
        assert main.count("Final standings") == 1, "the standings are shown twice"


def test_the_final_standings_name_every_player_with_their_gold_most_first_and_mark_the_winner(client, finished):
    game = with_gold(finished, [17, 42, 30])
    names = listed_as(game)
    for path in page_paths(game).values():
        lines = lines_of(standings_of(main_of(client, path)))
        assert lines == [
            f"{names[1]} — 42 gold · the winner",
            f"{names[2]} — 30 gold",
            f"{names[0]} — 17 gold",
        ]


def test_equal_gold_put_in_order_by_the_last_race_is_explained_under_the_standings(client, finished):
    best, middle, worst = last_race_ranking(finished)
    gold = [0, 0, 0]
    gold[best], gold[worst], gold[middle] = 30, 30, 20
    game = with_gold(finished, gold)
    names = names_of(game)
    told = (
        f"{names[best]} and {names[worst]} both have 30 gold; "
        f"{names[best]} placed better in race 6 (1st, against 3rd)."
    )
    for path in page_paths(game).values():
        section = standings_of(main_of(client, path))
        listed = listed_as(game)
        assert [line.split(" — ")[0] for line in lines_of(section)] == [listed[best], listed[worst], listed[middle]]
        assert told in html.unescape(section)


def test_no_tie_break_is_told_when_no_two_players_have_equal_gold(client, finished):
    game = with_gold(finished, [30, 20, 10])
    for path in page_paths(game).values():
        section = standings_of(main_of(client, path))
        assert section.split("</ol>")[1].strip() == "", "something is told under the list"


def test_a_running_game_shows_no_final_standings(client):
    game = started_game(3)
    for path in page_paths(game).values():
        assert 'id="standings"' not in main_of(client, path)
