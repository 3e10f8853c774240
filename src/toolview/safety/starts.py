# ruff: noqa: E501
"""The literal starts of the secret patterns, read ahead by ``starts_gen``.

Generated: do not edit. Keyed by each regex's source and flags; a regex not here
(an edited pattern) is read at run time. See ``anchors.literal_starts``.
"""

from typing import Final

__all__ = ["KNOWN_STARTS"]

KNOWN_STARTS: Final[dict[tuple[str, int], tuple[str, ...] | None]] = {
    ("(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9]|\\[redacted: )", 0): (
        "ABIA",
        "ACCA",
        "AKIA",
        "ASIA",
    ),
    ("AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_]|-[A-Za-z0-9_]|\\[redacted: )", 0): ("AIza",),
    ("GOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_]|-[A-Za-z0-9_]|\\[redacted: )", 0): ("GOCSPX-",),
    ("ya29\\.[A-Za-z0-9_-]{20,}", 0): ("ya29.",),
    ("g(?:h[pousr]_[A-Za-z0-9]{36,}|ithub_pat_[A-Za-z0-9_]{22,})", 0): (
        "gho_",
        "ghp_",
        "ghr_",
        "ghs_",
        "ghu_",
        "github_pat_",
    ),
    ("gl(?:pat|dt|rt|ptt|soat)-[A-Za-z0-9_-]{20,}", 0): (
        "gldt-",
        "glpat-",
        "glptt-",
        "glrt-",
        "glsoat-",
    ),
    ("npm_[A-Za-z0-9]{36}(?![0-9A-Za-z]|\\[redacted: )", 0): ("npm_",),
    ("pypi-AgE[A-Za-z0-9_-]{50,}", 0): ("pypi-AgE",),
    ("sk-ant-[A-Za-z0-9_-]{32,}", 0): ("sk-ant-",),
    ("sk-[A-Za-z0-9_-]{20,}", 0): ("sk-",),
    ("hf_[A-Za-z0-9]{30,}", 0): ("hf_",),
    ("x(?:ox[abposr]|app)-[A-Za-z0-9-]{10,}", 0): (
        "xapp-",
        "xoxa-",
        "xoxb-",
        "xoxo-",
        "xoxp-",
        "xoxr-",
        "xoxs-",
    ),
    ("https?://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]+", 0): (
        "http://hooks.slack.com/services/",
        "http://hooks.slack.com/triggers/",
        "http://hooks.slack.com/workflows/",
        "https://hooks.slack.com/services/",
        "https://hooks.slack.com/triggers/",
        "https://hooks.slack.com/workflows/",
    ),
    ("https?://(?:[a-z]+\\.)?discord(?:app)?\\.com/api/webhooks/\\d+/[A-Za-z0-9_-]+", 0): (
        "http://",
        "https://",
    ),
    ("\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,38}(?![A-Za-z0-9_]|-[A-Za-z0-9_]|\\[redacted: )", 0): (
        ".",
    ),
    (":AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_]|-[A-Za-z0-9_]|\\[redacted: )", 0): (":AA",),
    ("k_(?:live|test)_[A-Za-z0-9]{16,}", 0): ("k_live_", "k_test_"),
    ("whsec_[A-Za-z0-9]{24,}", 0): ("whsec_",),
    ("SK[0-9a-f]{32}(?![0-9A-Za-z]|\\[redacted: )", 0): ("SK",),
    ("SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_]|-[A-Za-z0-9_]|\\[redacted: )", 0): (
        "SG.",
    ),
    ("key-[0-9a-f]{32}(?![0-9A-Za-z]|\\[redacted: )", 0): ("key-",),
    ("shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![0-9A-Za-z]|\\[redacted: )", 0): (
        "shpat_",
        "shpca_",
        "shppa_",
        "shpss_",
    ),
    ("do[opr]_v1_[a-f0-9]{64}(?![0-9A-Za-z]|\\[redacted: )", 0): ("doo_v1_", "dop_v1_", "dor_v1_"),
    ("dapi[a-f0-9]{32}(?:-\\d)?(?![0-9A-Za-z]|\\[redacted: )", 0): ("dapi",),
    ("AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}", 0): ("AGE-SECRET-KEY-1",),
    ("dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}", 0): ("dckr_oat_", "dckr_pat_"),
    ("hv[sbr]\\.[A-Za-z0-9_-]{24,}", 0): ("hvb.", "hvr.", "hvs."),
    ("\\.atlasv1\\.[A-Za-z0-9_=-]{60,}", 0): (".atlasv1.",),
    ("1//0[A-Za-z0-9_-]{20,}", 0): ("1//0",),
    (
        "AC[0-9a-f]{32}(?![0-9A-Za-z]|\\[redacted: )(?s:.){1,60}?(?<![0-9A-Za-z])(?P<secret>[0-9a-f]{32})(?![0-9A-Za-z]|\\[redacted: )",
        0,
    ): ("AC",),
    ("eyJ[A-Za-z0-9_-]*+(?P<payload>\\.eyJ[A-Za-z0-9_-]*+\\.[A-Za-z0-9_-]*+)?", 0): ("eyJ",),
    ("-----(?:BEGIN|END)[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----", 0): ("-----BEGIN", "-----END"),
    (
        "://[^\\s:/@?#\\[\\]]*:(?P<secret>(?!\\[redacted)(?:[^\\s/?#\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))+)@",
        0,
    ): ("://",),
    (
        "authorization[\\\"']?[ \\t]*[:=][ \\t]*[\\\"']?(?:(?:bearer|basic|token|digest|negotiate|ntlm|apikey)[ \\t]+)?+(?P<secret>(?!\\[redacted)(?:[^\\s\"',;()\\[\\]{}<>\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++)",
        0,
    ): ("authorization",),
    (
        "cookie[\\\"']?[ \\t]*[:=][ \\t]*[\\\"']?(?P<secret>(?!\\[redacted)(?=[^\\s\\\"'])(?:[^\\r\\n\"'\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++)",
        0,
    ): ("cookie",),
    (
        "aws[_-]?secret[_-]?(?:access[_-]?)?key[\\\"']?[ \\t]*[:=][ \\t]*[\\\"']?(?P<secret>[a-z0-9/+]{40})(?![a-z0-9/+=])",
        0,
    ): (
        "aws-secret-access-key",
        "aws-secret-access_key",
        "aws-secret-accesskey",
        "aws-secret-key",
        "aws-secret_access-key",
        "aws-secret_access_key",
        "aws-secret_accesskey",
        "aws-secret_key",
        "aws-secretaccess-key",
        "aws-secretaccess_key",
        "aws-secretaccesskey",
        "aws-secretkey",
        "aws_secret-access-key",
        "aws_secret-access_key",
        "aws_secret-accesskey",
        "aws_secret-key",
        "aws_secret_access-key",
        "aws_secret_access_key",
        "aws_secret_accesskey",
        "aws_secret_key",
        "aws_secretaccess-key",
        "aws_secretaccess_key",
        "aws_secretaccesskey",
        "aws_secretkey",
        "awssecret-access-key",
        "awssecret-access_key",
        "awssecret-accesskey",
        "awssecret-key",
        "awssecret_access-key",
        "awssecret_access_key",
        "awssecret_accesskey",
        "awssecret_key",
        "awssecretaccess-key",
        "awssecretaccess_key",
        "awssecretaccesskey",
        "awssecretkey",
    ),
    ("Key=(?P<secret>[A-Za-z0-9+/]{20,}={0,2})", 0): ("Key=",),
    ("kind[\\\"']?[ \\t\\r\\n]*:[ \\t\\r\\n]*[\\\"']?Secret", 32): ("kind",),
    ("LS0tLS1CRUdJTi[A-Za-z0-9+/]*+={0,2}", 0): ("LS0tLS1CRUdJTi",),
    (
        "sig(?:nature)?=(?P<secret>(?:[^\\s&#\"'<>\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027])))){16,}+)",
        0,
    ): ("sig=", "signature="),
    (
        "_(?:KEY|PASS)[ \\t]*[=:][ \\t]*(?:\\\"(?P<secret>[^\\\"\\n]*)\\\"|'(?P<secret2>[^'\\n]*)'|\\\\[\\\"'](?P<secret4>(?:[^\"'\\n\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++)|(?P<secret3>(?:[^\\s\"'`;|&<>\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++))",
        0,
    ): ("_KEY", "_PASS"),
    (
        "-(?:u|-user)(?:[ \\t]+|=)?(?:\\\"(?P<secret>[^\\\"\\n]*)\\\"|'(?P<secret2>[^'\\n]*)'|\\\\[\\\"'](?P<secret4>(?:[^\"'\\n\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++)|(?P<secret3>(?:[^\\s\"'`;|&<>\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++))",
        0,
    ): ("--user", "-u"),
    (
        "-p(?:\\\"(?P<secret>[^\\\"\\n]*)\\\"|'(?P<secret2>[^'\\n]*)'|\\\\[\\\"'](?P<secret4>(?:[^\"'\\n\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++)|(?P<secret3>(?:[^\\s\"'`;|&<>\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++))",
        0,
    ): ("-p",),
    (
        "password[ \\t]+(?P<secret>(?:[^\\s\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++)",
        0,
    ): ("password\t", "password "),
    (
        "(?P<key>pass(?:word|wd|phrase))(?![a-z0-9_-])(?:\\\\?[\\\"'])?[ \\t]*(?:=>|[:=])(?![:=>])[ \\t]*(?:\\\"(?P<secret>(?:[^\\\"\\\\\\n]|\\\\.)+)\\\"?|'(?P<secret2>(?:[^'\\\\\\n]|\\\\.)+)'?|\\\\[\\\"'](?P<secret4>(?:[^\"'\\n\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++)|(?P<secret3>(?:[^\\s\"'`,;&<>(){}\\[\\]\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++))",
        0,
    ): ("passphrase", "passwd", "password"),
    (
        "(?P<key>pwd)(?![a-z0-9_-])(?:\\\\?[\\\"'])?[ \\t]*(?:=>|[:=])(?![:=>])[ \\t]*(?:\\\"(?P<secret>(?:[^\\\"\\\\\\n]|\\\\.)+)\\\"?|'(?P<secret2>(?:[^'\\\\\\n]|\\\\.)+)'?|\\\\[\\\"'](?P<secret4>(?:[^\"'\\n\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++)|(?P<secret3>(?:[^\\s\"'`,;&<>(){}\\[\\]\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++))",
        0,
    ): ("pwd",),
    (
        "(?P<key>private[_-]?key)(?![a-z0-9_-])(?:\\\\?[\\\"'])?[ \\t]*(?:=>|[:=])(?![:=>])[ \\t]*(?:\\\"(?P<secret>(?:[^\\\"\\\\\\n]|\\\\.)+)\\\"?|'(?P<secret2>(?:[^'\\\\\\n]|\\\\.)+)'?|\\\\[\\\"'](?P<secret4>(?:[^\"'\\n\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++)|(?P<secret3>(?:[^\\s\"'`,;&<>(){}\\[\\]\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++))",
        0,
    ): ("private-key", "private_key", "privatekey"),
    (
        "(?P<key>secret(?:[_-]?(?:access[_-]?)?key)?)(?![a-z0-9_-])(?:\\\\?[\\\"'])?[ \\t]*(?:=>|[:=])(?![:=>])[ \\t]*(?:\\\"(?P<secret>(?:[^\\\"\\\\\\n]|\\\\.)+)\\\"?|'(?P<secret2>(?:[^'\\\\\\n]|\\\\.)+)'?|\\\\[\\\"'](?P<secret4>(?:[^\"'\\n\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++)|(?P<secret3>(?:[^\\s\"'`,;&<>(){}\\[\\]\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++))",
        0,
    ): ("secret",),
    (
        "(?P<key>token)(?![a-z0-9_-])(?:\\\\?[\\\"'])?[ \\t]*(?:=>|[:=])(?![:=>])[ \\t]*(?:\\\"(?P<secret>(?:[^\\\"\\\\\\n]|\\\\.)+)\\\"?|'(?P<secret2>(?:[^'\\\\\\n]|\\\\.)+)'?|\\\\[\\\"'](?P<secret4>(?:[^\"'\\n\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++)|(?P<secret3>(?:[^\\s\"'`,;&<>(){}\\[\\]\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++))",
        0,
    ): ("token",),
    (
        "(?P<key>api[_-]?key)(?![a-z0-9_-])(?:\\\\?[\\\"'])?[ \\t]*(?:=>|[:=])(?![:=>])[ \\t]*(?:\\\"(?P<secret>(?:[^\\\"\\\\\\n]|\\\\.)+)\\\"?|'(?P<secret2>(?:[^'\\\\\\n]|\\\\.)+)'?|\\\\[\\\"'](?P<secret4>(?:[^\"'\\n\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++)|(?P<secret3>(?:[^\\s\"'`,;&<>(){}\\[\\]\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++))",
        0,
    ): ("api-key", "api_key", "apikey"),
    (
        "(?P<key>auth)(?![a-z0-9_-])(?:\\\\?[\\\"'])?[ \\t]*(?:=>|[:=])(?![:=>])[ \\t]*(?:\\\"(?P<secret>(?:[^\\\"\\\\\\n]|\\\\.)+)\\\"?|'(?P<secret2>(?:[^'\\\\\\n]|\\\\.)+)'?|\\\\[\\\"'](?P<secret4>(?:[^\"'\\n\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++)|(?P<secret3>(?:[^\\s\"'`,;&<>(){}\\[\\]\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++))",
        0,
    ): ("auth",),
    (
        "(?P<key>cookie)(?![a-z0-9_-])(?:\\\\?[\\\"'])?[ \\t]*(?:=>|[:=])(?![:=>])[ \\t]*(?:\\\"(?P<secret>(?:[^\\\"\\\\\\n]|\\\\.)+)\\\"?|'(?P<secret2>(?:[^'\\\\\\n]|\\\\.)+)'?|\\\\[\\\"'](?P<secret4>(?:[^\"'\\n\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++)|(?P<secret3>(?:[^\\s\"'`,;&<>(){}\\[\\]\\\\]|\\\\\\\\|\\\\(?![\\\\]|(?:[nrt\\\"']|u00(?:0[9aAdD]|2[027]))))++))",
        0,
    ): ("cookie",),
}
