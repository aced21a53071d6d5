def test_home_page_says_the_service_is_running(client):
    response = client.get("/")

    assert response.status_code == 200
    assert "The service is running." in response.text
    assert 'name="viewport"' in response.text
