"""Webhooks reach public addresses only: private, loopback, link-local, multicast and reserved targets
are refused (loopback only when the deployment allows it), whatever way the address is written."""

from __future__ import annotations

import ipaddress

import pytest

from service.game.webhooks.egress import address_allowed, check_url, split
from service.game.errors import GameError

REFUSED = [
    "10.0.0.5",
    "172.16.3.4",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "198.18.0.1",
    "192.0.2.10",
    "fe80::1",
    "fc00::1",
    "ff02::1",
    "::",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "2002:a00:1::1",
    "64:ff9b::a00:1",
]
LOOPBACK = ["127.0.0.1", "127.9.9.9", "::1", "::ffff:127.0.0.1"]
PUBLIC = ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111"]


@pytest.mark.parametrize("address", REFUSED)
def test_private_link_local_multicast_and_reserved_addresses_are_refused_even_with_loopback_allowed(address):
    assert not address_allowed(ipaddress.ip_address(address), allow_loopback=True)


@pytest.mark.parametrize("address", LOOPBACK)
def test_loopback_is_refused_unless_the_deployment_allows_it(address):
    ip = ipaddress.ip_address(address)
    assert not address_allowed(ip, allow_loopback=False)
    assert address_allowed(ip, allow_loopback=True)


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses_are_allowed(address):
    assert address_allowed(ipaddress.ip_address(address), allow_loopback=False)


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.com/x",
        "file:///etc/passwd",
        "http:///nohost",
        "example.com/hook",
        "http://exa mple.com/",
        "http://example.com:99999/",
    ],
)
def test_only_http_and_https_urls_with_a_host_are_accepted(url):
    with pytest.raises(GameError) as err:
        split(url)
    assert err.value.code == "invalid_webhook_url" and err.value.field == "url"


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/hook",
        "http://[::1]/hook",
        "http://localhost/hook",
        "http://2130706433/hook",
        "http://0x7f000001/hook",
        "http://10.1.2.3/hook",
        "https://169.254.169.254/latest/meta-data/",
    ],
)
async def test_a_url_whose_host_resolves_to_a_refused_address_is_refused(url):
    with pytest.raises(GameError) as err:
        await check_url(url, allow_loopback=False)
    assert err.value.status == 422 and err.value.code == "webhook_url_forbidden" and err.value.field == "url"


async def test_a_loopback_url_is_accepted_when_the_deployment_allows_loopback():
    await check_url("http://localhost:8123/hook", allow_loopback=True)
