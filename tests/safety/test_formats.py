"""The context rules of the newer formats: what is hidden, and what stays readable."""

from __future__ import annotations

import base64

import pytest

from toolview.safety import redact

HEX32 = "9f2c4b1e7d3a5c6b8e0f1a2b3c4d5e6f"


def test_a_twilio_sid_stays_and_its_token_goes() -> None:
    sid = "AC" + HEX32[::-1]
    out = redact(f"TwilioClient({sid!r}, {HEX32!r})")
    assert sid in out and HEX32 not in out and "[redacted: twilio-auth-token]" in out
    assert redact(f"sid {sid} md5 only") == f"sid {sid} md5 only"


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ("curl -u alice:s3cr3tPW https://x", "curl -u alice:"),
        ("curl --user 'alice:s3cr3t PW' https://x", "curl --user 'alice:"),
        ("mysql -uroot -ps3cr3tPW db", "mysql -uroot -p"),
        ("machine h login bob password s3cr3tPW", "machine h login bob password "),
    ],
)
def test_a_command_line_credential_keeps_its_user(line: str, kept: str) -> None:
    out = redact(line)
    assert out.startswith(kept) and "s3cr3t" not in out


@pytest.mark.parametrize(
    "line",
    [
        "PUBLIC_KEY=AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
        "NEXT_PUBLIC_MAPBOX_KEY=pk.eyJ1IjoiZXhhbXBsZSJ9",
        "PRIMARY_KEY=id",
        "PARTITION_KEY: tenant_id",
        "CACHE_KEY=user:42:profile",
        "SSL_KEY=/etc/ssl/private/site.key",
        "KEY_NAME=prod-signing",
        "FIRST_PASS=true",
        "cache_key=user:42",
    ],
)
def test_env_names_that_are_not_secrets_stay(line: str) -> None:
    assert redact(line) == line


@pytest.mark.parametrize("line", ["STRIPE_KEY=rk9x2LmQ8vT4nB7c", "SMTP_PASS='hunter2 x'"])
def test_env_names_ending_key_or_pass_are_hidden(line: str) -> None:
    assert "[redacted: env-" in redact(line)


def test_only_the_secret_document_of_a_multi_document_yaml_is_hidden() -> None:
    text = (
        "apiVersion: v1\nkind: ConfigMap\ndata:\n  level: debug\n---\n"
        "apiVersion: v1\nkind: Secret\ndata:\n  conn: cG9zdGdyZXM6Ly8=\n"
        "  cert: |\n    line-one\n    line-two\ntype: Opaque\n---\n"
        "kind: ConfigMap\ndata:\n  url: https://x.example\n"
    )
    out = redact(text)
    assert "level: debug" in out and "url: https://x.example" in out
    assert "cG9zdGdyZXM6Ly8=" not in out and "line-one" not in out and "line-two" not in out
    assert "  conn: [redacted: kubernetes-secret]" in out and "type: Opaque" in out


def test_base64_of_a_public_key_or_certificate_stays() -> None:
    for label in ("PUBLIC KEY", "CERTIFICATE"):
        encoded = base64.b64encode(f"-----BEGIN {label}-----\nMIIB\n".encode()).decode()
        assert redact(encoded) == encoded


def test_a_short_signed_url_parameter_stays() -> None:
    url = "https://example.com/?sig=abc&signature=true&q=sig=1"
    assert redact(url) == url


def test_a_secret_cut_before_its_kind_is_still_hidden() -> None:
    """kubectl prints data before kind: a window or field cut there loses the kind."""
    value = base64.b64encode(b"postgres://app:pw-9f2c4b1e@db/app").decode()
    json_cut = '{"apiVersion": "v1", "data": {"conn": "' + value + '"}, "ki'
    yaml_cut = f"apiVersion: v1\ndata:\n  conn: {value}\n  user: YWRtaW4=\nki"
    for text in (json_cut, yaml_cut):
        out = redact(text)
        assert value not in out and "[redacted: kubernetes-secret]" in out, text


def test_a_list_item_cut_before_its_kind_is_hidden_after_other_items() -> None:
    """``kubectl get configmaps,secrets -o yaml``: a ConfigMap item said its kind, the
    Secret after it is cut (a running call's output, a window) before saying its own."""
    value = base64.b64encode(b"postgres://app:pw-9f2c4b1e@db/app").decode()
    config = "- apiVersion: v1\n  data:\n    color: blue\n  kind: ConfigMap\n  metadata:\n"
    text = f"apiVersion: v1\nitems:\n{config}    name: c\n- apiVersion: v1\n  data:\n"
    out = redact(f"{text}    conn: {value}\n")
    assert value not in out and "[redacted: kubernetes-secret]" in out
    assert "color: blue" in out


@pytest.mark.parametrize(
    "text",
    [
        '{"apiVersion": "v1", "data": {"level": "debug", "mode": "fast"}, "ki',
        "apiVersion: v1\ndata:\n  level: debug\n",
        '{"status": "ok", "data": {"id": "YWRtaW4="}, "ne',
        "apiVersion: v1\nkind: ConfigMap\ndata:\n  blob: YWRtaW4=\n",
    ],
)
def test_a_cut_resource_with_plain_data_or_no_api_version_stays(text: str) -> None:
    assert redact(text) == text


def test_curl_user_on_a_continuation_line_is_hidden() -> None:
    text = "curl -X POST \\\n  -u alice:s3cr3tPW \\\n  https://api.example.com\n"
    out = redact(text)
    assert "s3cr3t" not in out and "-u alice:[redacted: curl-password]" in out
    other = "echo done\n  -u alice:notcurl1"
    assert redact(other) == other
