"""The skeleton serves its pages and API schema and reaches its database."""

import pytest
from django.contrib.auth import get_user_model


def test_it_serves_the_home_page(client, db):  # the home page offers the maps
    response = client.get("/")

    assert response.status_code == 200
    assert b"Conquest" in response.content


def test_it_serves_the_api_schema(client):
    response = client.get("/api/v1/schema/")

    assert response.status_code == 200
    assert b"Conquest API" in response.content


def test_it_answers_the_health_check(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.content == b"ok"


@pytest.mark.django_db
def test_it_stores_and_reads_back_a_user():
    User = get_user_model()
    User.objects.create_user("alice", "alice@example.com", "correct horse battery staple")

    alice = User.objects.get(username="alice")

    assert alice.email == "alice@example.com"
    assert alice.check_password("correct horse battery staple")
