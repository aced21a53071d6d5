"""The one outgoing HTTP request a webhook delivery makes, bounded and kept
off the server's own network.

A webhook's address is the player's to choose, so it could name the
server's own network (a database's port, a cloud metadata endpoint). The
host is resolved once, every address it resolves to is checked, and the
connection goes to a checked address, so a name that resolves to a public
address for the check and to a private one for the connection (DNS
rebinding) connects nowhere it should not. The request keeps the name as
its Host header and, for https, as the TLS server name the certificate is
checked against.

Private, loopback, link-local, multicast, reserved and unspecified
addresses, and IPv6 addresses that carry an IPv4 one (6to4, Teredo, NAT64,
ISATAP...), are refused unless WEBHOOK_ALLOW_PRIVATE_ADDRESSES is on (a test
receiver on the loopback, a service on a private network), which also
allows plain http; otherwise https is required."""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

URL_MAX = 500
# Seconds for the connection, and for each read of the answer.
TIMEOUT = 5.0
# The answer is read this far, for the moderators' timeline; the rest is left.
RESPONSE_MAX = 4096


class AddressRefused(Exception):
    """The address may not be sent to at all (the message says why, for the
    player); sending again cannot cure it."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes


def private_allowed() -> bool:
    return bool(getattr(settings, "WEBHOOK_ALLOW_PRIVATE_ADDRESSES", False))


def target_of(url: str) -> Target:
    """The parts of a webhook address, or AddressRefused: http(s) only
    (https unless private addresses are allowed), a host, no user name or
    password, nothing that is not plain ASCII."""
    url = url.strip()
    if not url or len(url) > URL_MAX:
        raise AddressRefused(_("Give the webhook's address, of up to %(n)d characters.") % {"n": URL_MAX})
    if not url.isascii() or any(ch.isspace() or ord(ch) < 32 for ch in url):
        raise AddressRefused(_("A webhook's address is plain text without spaces."))
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise AddressRefused(_("That is not a web address.")) from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise AddressRefused(_("A webhook's address starts with https://."))
    if scheme == "http" and not private_allowed():
        raise AddressRefused(_("A webhook's address must use https://, not http://."))
    if parts.username is not None or parts.password is not None:
        raise AddressRefused(_("A webhook's address may not hold a user name or password."))
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise AddressRefused(_("That address names no host."))
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(scheme=scheme, host=host, port=port or (443 if scheme == "https" else 80), path=path)


# IPv6 ranges that carry an IPv4 address inside, which a relay or gateway may
# deliver to: 6to4 (RFC 3056), Teredo (RFC 4380), NAT64's well-known and
# local prefixes (RFC 6052, RFC 8215), IPv4-compatible (RFC 4291, deprecated)
# and IPv4-translated (RFC 2765). Refused by the list, not by the library's
# is_global, whose view of them changes between Python versions (3.11 counts
# 2002::/16 as global).
TRANSITION_RANGES = tuple(
    ipaddress.IPv6Network(network)
    for network in ("2002::/16", "2001::/32", "64:ff9b::/96", "64:ff9b:1::/48", "::/96", "::ffff:0:0:0/96")
)
# ISATAP (RFC 5214) writes the IPv4 address into the interface identifier
# (::0:5efe:a.b.c.d or ::200:5efe:a.b.c.d) under any prefix.
_ISATAP_MASK, _ISATAP_MARK = 0xFDFFFFFF, 0x00005EFE


def _carries_ipv4(ip: ipaddress.IPv6Address) -> bool:
    return any(ip in network for network in TRANSITION_RANGES) or (int(ip) >> 32) & _ISATAP_MASK == _ISATAP_MARK


def address_refused(address: str) -> bool:
    """Whether an IP address lies where webhooks may not go."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if isinstance(ip, ipaddress.IPv6Address) and _carries_ipv4(ip):
        return True
    return (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or not ip.is_global
    )


def _resolve(host: str, port: int) -> list[tuple[int, str]]:
    """Every (family, address) the host resolves to: looked up once."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError, OSError):
        raise AddressRefused(_("The host %(host)s could not be found.") % {"host": host}) from None
    addresses: list[tuple[int, str]] = []
    for family, _type, _proto, _name, sockaddr in found:
        address = str(sockaddr[0])  # the host, a str for both families
        if (family, address) not in addresses:
            addresses.append((family, address))
    if not addresses:
        raise AddressRefused(_("The host %(host)s could not be found.") % {"host": host})
    return addresses


def addresses_checked(target: Target) -> list[tuple[int, str]]:
    """The addresses to connect to: all of them allowed, or AddressRefused."""
    addresses = _resolve(target.host, target.port)
    if not private_allowed() and any(address_refused(address) for _family, address in addresses):
        raise AddressRefused(
            _("%(host)s is a private, local or reserved address; webhooks go to public addresses only.")
            % {"host": target.host}
        )
    return addresses


def url_check(url: str) -> Target:
    """The whole check a webhook's address passes when it is added and again
    before every request: AddressRefused with the reason, or its target."""
    target = target_of(url)
    addresses_checked(target)
    return target


class _ServerNameContext(ssl.SSLContext):
    """A client's TLS context that gives the server every connection's one
    name to check the certificate against (and to send as SNI), whatever
    address the connection was opened to."""

    server_name = ""

    def wrap_socket(self, sock, *args, **kwargs):  # type: ignore[no-untyped-def]
        return super().wrap_socket(sock, *args, **{**kwargs, "server_hostname": self.server_name})


def _tls_context(server_name: str) -> ssl.SSLContext:
    """What ssl.create_default_context() gives a client (the system's
    certificates, the name checked), for ``server_name``."""
    context = _ServerNameContext(ssl.PROTOCOL_TLS_CLIENT)
    context.load_default_certs(ssl.Purpose.SERVER_AUTH)
    context.server_name = server_name
    return context


def _connection(target: Target, address: str) -> http.client.HTTPConnection:
    """A connection to the checked ``address``, not to the name, which is
    not looked up again; the name goes in the Host header (_host_header)
    and, for https, is the one the certificate must be for."""
    if target.scheme == "https":
        return http.client.HTTPSConnection(address, target.port, timeout=TIMEOUT, context=_tls_context(target.host))
    return http.client.HTTPConnection(address, target.port, timeout=TIMEOUT)


def _host_header(target: Target) -> str:
    """The Host header http.client would write for the name: the port only
    when it is not the scheme's own, an IPv6 address in brackets."""
    host = f"[{target.host}]" if ":" in target.host else target.host
    return host if target.port == (443 if target.scheme == "https" else 80) else f"{host}:{target.port}"


def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST ``body`` to ``url`` once: no redirect followed, the answer read
    up to RESPONSE_MAX bytes. AddressRefused for an address that may not be
    sent to; OSError (timeouts, refused connections, TLS) when it failed."""
    target = target_of(url)
    addresses = addresses_checked(target)
    error: OSError | None = None
    for _family, address in addresses:
        connection = _connection(target, address)
        try:
            connection.request("POST", target.path, body=body, headers={**headers, "Host": _host_header(target)})
            response = connection.getresponse()
            return Answer(status=response.status, body=response.read(RESPONSE_MAX))
        except (OSError, http.client.HTTPException) as failure:
            error = failure if isinstance(failure, OSError) else OSError(f"{type(failure).__name__}: {failure}")
            # Only a connection that never opened is tried at the next address.
            if not isinstance(failure, ConnectionRefusedError):
                break
        finally:
            connection.close()
    raise error or OSError("no address to connect to")
