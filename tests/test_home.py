from games import engine


def test_home_page_says_what_the_service_is_in_a_sentence_a_stranger_understands(client):
    response = client.get("/")

    assert response.status_code == 200
    rules = engine.get_ruleset("classic")
    assert (
        "Galopp Royal is a board game of sedan-chair races and blind auctions for "
        f"{rules.min_players} to {rules.max_players} players." in response.text
    )
    assert "played by email over several days" in response.text
    assert "each player gets an email when it is their turn and decides on a web page" in response.text
    assert "no account needed" in response.text
    assert "The service is running." not in response.text
    assert "Start a new game" in response.text
    assert 'name="viewport"' in response.text
