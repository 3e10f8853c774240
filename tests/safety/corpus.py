"""Fake credentials for the redaction tests.

Every value is generated here from a fixed seed: realistic in shape, never a
real key. Built at run time (not written out) so no secret scanner mistakes
this file for a leak.
"""

from __future__ import annotations

import base64
import json
import random

_R = random.Random(1234)
ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789"
UPPER = "ABCDEFGHJKLMNPQRSTUVWXYZ234567"
HEX = "0123456789abcdef"
B64URL = ALNUM + "_-"


def fake(n: int, alphabet: str = ALNUM) -> str:
    """``n`` random characters; always holds a digit, as real keys do."""
    body = "".join(_R.choice(alphabet) for _ in range(n - 1))
    return body + _R.choice([c for c in alphabet if c.isdigit()] or list(alphabet))


def _b64url(data: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


def _pem(label: str) -> str:
    lines = "\n".join(fake(64, ALNUM + "+/") for _ in range(4))
    return f"-----BEGIN {label}-----\n{lines}\n-----END {label}-----"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _wrapped(text: str, width: int = 76) -> str:
    return "\n".join(text[i : i + width] for i in range(0, len(text), width))


_TWILIO_SID = "AC" + fake(32, HEX)
_AZURE_SAS = "https://acct.blob.core.windows.net/c/b.txt?sv=2022-11-02&ss=b&srt=o&sp=r"
_AWS_PRESIGNED = (
    "https://bucket.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256"
    "&X-Amz-Date=20260101T000000Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host&X-Amz-Signature="
)
_GCS_SIGNED = (
    "https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature="
)
_CLOUDFRONT = "https://d111111abcdef8.cloudfront.net/a.jpg?Expires=1767225600&Signature="
_DOCKER_AUTH = _b64("robot:" + fake(20))
_DOCKER_CONFIG = _b64('{"auths":{"registry.example.com":{"auth":"' + _DOCKER_AUTH + '"}}}')
_K8S_DATA = "apiVersion: v1\ndata:\n  ca.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t\n  tls.key: "
_K8S_MULTILINE = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\nstringData:\n  app.ini: |\n"
_PEM_B64 = _b64(_pem("RSA PRIVATE KEY") + "\n")

_JWT = f"{_b64url({'alg': 'HS256', 'typ': 'JWT'})}.{_b64url({'sub': '42'})}.{fake(43, B64URL)}"

_SLACK_HOOK = "https://hooks.slack.com/services/T0A1B2C3D/B0A1B2C3D/"
_DISCORD_HOOK = "https://discord.com/api/webhooks/123456789012345678/"
_DISCORD_BOT = "M" + fake(25, B64URL) + "." + fake(6, B64URL) + "." + fake(38, B64URL)

# (expected mark name, text before, the secret, text after)
SECRETS: list[tuple[str, str, str, str]] = [
    ("aws-access-key-id", "key id ", "AKIA" + fake(16, UPPER), " in use"),
    ("aws-access-key-id", "sts: ", "ASIA" + fake(16, UPPER), ""),
    ("aws-secret-access-key", "AWS_SECRET_ACCESS_KEY=", fake(40, ALNUM + "/+"), "\n"),
    ("aws-secret-access-key", "aws_secret_access_key = ", fake(40, ALNUM + "/+"), ""),
    ("gcp-api-key", "key=", "AIza" + fake(35, B64URL), "&q=1"),
    ("google-oauth-client-secret", '"client": "', "GOCSPX-" + fake(28, B64URL), '"'),
    ("google-oauth-token", "access ", "ya29." + fake(80, B64URL), ""),
    ("azure-storage-key", "AccountName=acct;AccountKey=", fake(86, ALNUM + "+/") + "==", ";x"),
    ("github-token", "token ", "ghp_" + fake(36), " expires"),
    ("github-token", "", "gho_" + fake(36), ""),
    ("github-token", "(", "ghu_" + fake(36), ")"),
    ("github-token", "GH=", "ghs_" + fake(36), ""),
    ("github-token", "refresh: ", "ghr_" + fake(36), ""),
    ("github-token", "pat ", "github_pat_" + fake(22) + "_" + fake(59), ""),
    ("gitlab-token", "PRIVATE-TOKEN: ", "glpat-" + fake(20, B64URL), ""),
    ("npm-token", "//registry.npmjs.org/:_authToken=", "npm_" + fake(36), ""),
    ("pypi-token", "password = ", "pypi-AgEIcHlwaS5vcmc" + fake(70, B64URL), ""),
    ("openai-api-key", "OPENAI_API_KEY=", "sk-" + fake(48), ""),
    ("openai-api-key", "key: ", "sk-proj-" + fake(120, B64URL), ""),
    ("anthropic-api-key", "x-api-key: ", "sk-ant-api03-" + fake(93, B64URL), ""),
    ("huggingface-token", "HF ", "hf_" + fake(34), ""),
    ("slack-token", "bot ", "xoxb-1234567890-1234567890123-" + fake(24), ""),
    ("slack-token", "user ", "xoxp-1234567890-1234567890-12345678901-" + fake(32, HEX), ""),
    ("slack-token", "app ", "xapp-1-A0123456789-1234567890123-" + fake(64, HEX), ""),
    ("slack-webhook", "POST ", _SLACK_HOOK + fake(24), ""),
    ("discord-webhook", "", _DISCORD_HOOK + fake(68, B64URL), ""),
    ("discord-bot-token", "Bot ", _DISCORD_BOT, ""),
    ("telegram-bot-token", "api/bot", "1234567890:AA" + fake(33, B64URL), "/getMe"),
    ("stripe-key", "STRIPE=", "sk_live_" + fake(24), ""),
    ("stripe-key", "restricted ", "rk_live_" + fake(24), ""),
    ("stripe-key", "test ", "sk_test_" + fake(24), ""),
    ("stripe-webhook-secret", "", "whsec_" + fake(32), ""),
    ("twilio-api-key", "sid ", "SK" + fake(32, HEX), ""),
    ("sendgrid-api-key", "", "SG." + fake(22, B64URL) + "." + fake(43, B64URL), ""),
    ("mailgun-api-key", "api:", "key-" + fake(32, HEX), ""),
    ("shopify-token", "X-Shopify-Access: ", "shpat_" + fake(32, HEX), ""),
    ("digitalocean-token", "", "dop_v1_" + fake(64, HEX), ""),
    ("databricks-token", "", "dapi" + fake(32, HEX), ""),
    ("age-secret-key", "", "AGE-SECRET-KEY-1" + fake(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"), ""),
    ("jwt", "id_token ", _JWT, " end"),
    ("private-key", "key:\n", _pem("RSA PRIVATE KEY"), "\nafter"),
    ("private-key", "", _pem("OPENSSH PRIVATE KEY"), ""),
    ("private-key", "", _pem("EC PRIVATE KEY"), ""),
    ("private-key", "", _pem("ENCRYPTED PRIVATE KEY"), ""),
    ("url-password", "https://alice:", fake(16), "@example.com/x"),
    ("url-password", "DATABASE_URL=postgres://app:", "p@ss" + fake(10), "@db:5432/app"),
    ("url-password", "redis://:", fake(20), "@cache:6379/0"),
    ("authorization-header", "Authorization: Bearer ", fake(40, B64URL + "."), "\n"),
    ("authorization-header", "authorization: Basic ", "YWxpY2U6" + fake(16) + "==", ""),
    ("authorization-header", '-H "Authorization: token ', fake(40, HEX), '"'),
    ("cookie-header", "Cookie: ", "sid=" + fake(24) + "; theme=dark", "\n"),
    ("cookie-header", "< Set-Cookie: ", "session=" + fake(24) + "; Path=/; HttpOnly", ""),
    ("password", "password=", fake(12), " user=bob"),
    ("password", '{"password": "', "correct horse " + fake(6), '"}'),
    ("password", "DB_PASSWORD=", fake(14), ""),
    ("password", "Password: ", fake(10), ""),
    ("passwd", "passwd=", fake(10), ""),
    ("pwd", "PWD=", fake(10), ""),
    ("secret", "secret: ", fake(20), ""),
    ("token", "token=", fake(20), "&x=1"),
    ("token", "auth_token => '", fake(20), "'"),
    ("api_key", "api_key: ", fake(32), ""),
    ("api_key", '"apiKey":"', fake(32), '"'),
    ("api_key", "X-Api-Key: ", fake(32), ""),
    ("access_token", "access_token=", fake(30), ""),
    ("client_secret", "CLIENT_SECRET = '", fake(30), "'"),
    ("private_key", "private_key=", fake(30), ""),
    ("auth", "auth: ", fake(30), ""),
    ("signed-url-signature", _AZURE_SAS + "&sig=", fake(40, ALNUM) + "%2B" + fake(3) + "%3D", ""),
    ("signed-url-signature", _AWS_PRESIGNED, fake(64, HEX), ""),
    ("signed-url-signature", _GCS_SIGNED, fake(256, HEX), "&x=1"),
    ("signed-url-signature", _CLOUDFRONT, fake(120, B64URL + "~"), "&Key-Pair-Id=K2JCJMDEHXQW5F"),
    ("twilio-auth-token", f'client = Client("{_TWILIO_SID}", "', fake(32, HEX), '")'),
    ("twilio-auth-token", f"sid {_TWILIO_SID}\nauth ", fake(32, HEX), ""),
    (
        "docker-hub-token",
        "docker login -u bob --password-stdin <<< ",
        "dckr_pat_" + fake(27, B64URL),
        "",
    ),
    ("vault-token", "vault login ", "hvs." + fake(90, B64URL), ""),
    ("vault-token", "batch ", "hvb." + fake(138, B64URL), " ok"),
    ("vault-token", "recovery ", "hvr." + fake(24, B64URL), ""),
    ("google-oauth-refresh-token", "stored ", "1//0g" + fake(99, B64URL), " in ~/.config"),
    ("env-key", "STRIPE_KEY=", fake(32), "\n"),
    ("env-key", "export MAPBOX_KEY='", fake(40), "'"),
    ("env-key", "  SENDGRID_KEY: ", fake(40), "\n"),
    ("env-pass", "SMTP_PASS=", fake(12), "\nSMTP_USER=bob"),
    ("pwd", "MYSQL_ROOT_PWD=", fake(12), ""),
    ("curl-password", "curl -u alice:", fake(14), " https://api.example.com"),
    ("curl-password", "curl -s --user 'bob:", fake(14), "' https://x.example"),
    ("curl-password", "$ curl --user=carol:", fake(14), " -X POST https://x.example"),
    ("mysql-password", "mysql -h db -u root -p", fake(12), " app < dump.sql"),
    ("password", "mysqldump --user=root --password=", fake(12), " app"),
    ("netrc-password", "machine api.heroku.com login me@example.com password ", fake(40, HEX), ""),
    ("netrc-password", "machine github.com\n  login bob\n  password ", fake(40), "\n"),
    ("kubernetes-secret", _K8S_DATA, _b64(fake(48)), "\nkind: Secret\nmetadata:\n  name: tls\n"),
    ("kubernetes-secret", _K8S_MULTILINE + "    [db]\n    conn = ", fake(30), "\ntype: Opaque\n"),
    (
        "kubernetes-secret",
        '{"apiVersion": "v1", "data": {"conn": "',
        _b64("postgres://app:" + fake(16) + "@db/app"),
        '"}, "kind": "Secret", "metadata": {"name": "db"}, "type": "Opaque"}',
    ),
    (
        "kubernetes-secret",
        '{\n  "kind": "Secret",\n  "metadata": {"annotations": {"a": "{\\"data\\": 1}"}},\n'
        '  "stringData": {\n    "settings.ini": "conn = ',
        fake(20),
        '"\n  }\n}',
    ),
    ("docker-config", "  .dockerconfigjson: ", _DOCKER_CONFIG, "\ntype: x"),
    ("private-key-base64", "echo ", _PEM_B64, " | base64 -d > id_rsa"),
    ("private-key-base64", "$ base64 id_rsa\n", _wrapped(_PEM_B64), "\n$ ls"),
    # issue 21: Terraform Cloud / HCP tokens, and unmistakable tokens glued onto a word
    ("terraform-cloud-token", "app.terraform.io ", fake(14) + ".atlasv1." + fake(67, B64URL), ""),
    ("terraform-cloud-token", '{"token": "', fake(14) + ".atlasv1." + fake(70, B64URL), '"}'),
    ("github-token", "k", "ghp_" + fake(36), " expires"),
    ("github-token", "export X", "github_pat_" + fake(22) + "_" + fake(59), ""),
    ("gitlab-token", "ci", "glpat-" + fake(20), " job"),
    ("slack-token", "bot", "xoxb-1234567890-1234567890123-" + fake(24), ""),
    ("anthropic-api-key", "key", "sk-ant-api03-" + fake(93, B64URL), ""),
    ("npm-token", "npmrc", "npm_" + fake(36), ""),
    # issue 21: in a JSON string, an escape ends a value as its character would
    ("github-token", '{"cfg": "github_token = ', "ghp_" + fake(36), '\\nretries = 3"}'),
    ("password", '{"cfg": "password = ', fake(12), '\\tretries = 3"}'),
    ("password", '{"body": "{\\"password\\": \\"', "correct horse " + fake(8), '\\"}"}'),
    ("authorization-header", '{"h": "Authorization: Bearer ', fake(40, B64URL), '\\nAccept: */*"}'),
    ("cookie-header", '{"h": "Cookie: ', "sid=" + fake(24), '\\r\\nHost: x.example"}'),
    ("curl-password", '{"cmd": "curl -s https://x.example -u bob:', fake(14), '\\ncurl -I x"}'),
]

BENIGN: list[str] = [
    "commit a3f9c2e1d4b5a6c7d8e9f0a1b2c3d4e5f6a7b8c9 (HEAD -> main)",
    "Merge 1a2b3c4 into 5d6e7f8",
    "request 123e4567-e89b-12d3-a456-426614174000 done",
    "sha256:" + "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "data:image/png;base64," + base64.b64encode(random.Random(5).randbytes(3000)).decode(),
    "Reset your password in the settings page.",
    "The token expired; please sign in again.",
    "Passwords must be at least 12 characters. Tokens are rotated daily.",
    "token_count=5 max_tokens: 100 tokenizer=gpt2 tokens=1234",
    "def login(username: str, password: str) -> None:",
    "password=None, token=null, secret=undefined, auth=false",
    "password = getpass() ; api_key = os.environ['API_KEY']",
    "PWD=/home/alice OLDPWD=/tmp",
    'password: ${DB_PASSWORD}  token: "<your-token>"  secret=********',
    '{"password": "", "token": ""}',
    "password=password",
    "risk-assessment-framework-for-everyone and task-list",
    "https://example.com:8080/path?q=1#top git@github.com:org/repo.git ssh://git@host/r",
    "a" * 5000,
    "Pneumonoultramicroscopicsilicovolcanoconiosis " * 20,
    "eyJhbGciOiJIUzI1NiJ9 is only a header",
    "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----",
    "AKIAIOSFODNN7EXAMP is too short",
    "mail alice@example.com at 12:30:45 from ::1 and fe80::1",
    "The author: Jane. The secretary: Bob.",
    "x-request-id: 0a1b2c3d sk-learn-compatible-estimators",
    '"integrity": "sha512-' + base64.b64encode(random.Random(6).randbytes(64)).decode() + '"',
    "https://example.com/search?q=signature&sig=abc&signature=true",
    "The signature= field and sig=... are documented in RFC 9421.",
    'curl -u $USER https://api.example.com && curl -u "$USER:$PASS" https://x.example',
    "curl -u bob https://x.example   # prompts for the password",
    "docker run -u 1000:1000 --rm image && sort -u data.txt && ps -u root",
    "mysql -u root -p app && mysql -P3306 -h db && mysql -p -h db",
    "KEY_NAME=prod-signing\nKEY_ID=0123456789\nPUBLIC_KEY=ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI",
    "PRIMARY_KEY=id\nSORT_KEY=created_at\nNEXT_PUBLIC_STRIPE_KEY=pk_test_51Hx\nSSL_KEY=/etc/k.pem",
    "Enter the password field below; the password must be long.\npassword reset sent",
    "apiVersion: v1\nkind: ConfigMap\ndata:\n  log_level: debug\n  endpoint: https://x.example\n",
    '{"items": [{"kind": "Secret", "metadata": {"name": "x"}}, '
    '{"kind": "ConfigMap", "data": {"level": "debug", "url": "https://x.example"}}]}',
    "LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0KTUZrd0V3WUhLb1pJemowQ0FRWUlLb1pJemowREFRY0RRZ0FF",
    "ACb1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6 built from commit a3f9c2e1d4b5a6c7d8e9f0a1b2c3d4e5f6a7b8c9",
    "hvs is short for hvs.x and 1//0 is a path",
    "docker pull dckr_pat is not a token",
    # glued onto a word, only unmistakable shapes are tokens: these are words
    "sandboxxoxo-hugs-and-kisses-forever and myxapp-configuration-settings-for-prod",
    "task-ant-colony-simulation-framework-service-v2 desk-ant-farm-observation-2024-report",
    "weighs_total_count laughs_at_the_joke ghp_short glpat-x",
    "registry.atlasv1.internal/api/v2 and version.atlasv1.x and .atlasv1. tokens",
]
