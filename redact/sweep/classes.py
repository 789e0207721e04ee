"""What a finding is called in a sweep report, and what its owner should do about it.

The secrets layer names the detector that fired (`github-token`, `password-assignment`,
`high-entropy-base64`, ...). A sweep reports by class: the detector's name, except that a URL with
credentials whose scheme is a database's is a `database-url`. Each class may carry the provider's
page for revoking or rotating that credential: static strings, never fetched.
"""
from __future__ import annotations

import re

_DB_SCHEMES = re.compile(
    r"(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?|mssql|sqlserver|"
    r"oracle|cockroachdb|clickhouse|jdbc:[a-z]+)://", re.IGNORECASE)

#: class -> (what it is, where to rotate it). A class without a known page gets the generic advice.
ROTATION: dict[str, tuple[str, str]] = {
    "aws-access-key": ("AWS access key", "https://console.aws.amazon.com/iam/home#/security_credentials"),
    "aws-bedrock-key": ("AWS Bedrock API key", "https://console.aws.amazon.com/bedrock/home#/api-keys"),
    "github-token": ("GitHub token", "https://github.com/settings/tokens"),
    "github-fine-grained-pat": ("GitHub fine-grained token", "https://github.com/settings/personal-access-tokens"),
    "gitlab-token": ("GitLab token", "https://gitlab.com/-/user_settings/personal_access_tokens"),
    "slack-token": ("Slack token", "https://api.slack.com/apps"),
    "slack-webhook": ("Slack webhook", "https://api.slack.com/apps"),
    "stripe-key": ("Stripe key", "https://dashboard.stripe.com/apikeys"),
    "openai-api-key": ("OpenAI API key", "https://platform.openai.com/api-keys"),
    "anthropic-api-key": ("Anthropic API key", "https://console.anthropic.com/settings/keys"),
    "google-api-key": ("Google API key", "https://console.cloud.google.com/apis/credentials"),
    "npm-token": ("npm token", "https://www.npmjs.com/settings/~/tokens"),
    "pypi-token": ("PyPI token", "https://pypi.org/manage/account/token/"),
    "huggingface-token": ("Hugging Face token", "https://huggingface.co/settings/tokens"),
    "sendgrid-api-key": ("SendGrid API key", "https://app.sendgrid.com/settings/api_keys"),
    "digitalocean-token": ("DigitalOcean token", "https://cloud.digitalocean.com/account/api/tokens"),
    "twilio-api-key": ("Twilio API key", "https://console.twilio.com/us1/account/keys-credentials/api-keys"),
    "mailchimp-api-key": ("Mailchimp API key", "https://admin.mailchimp.com/account/api/"),
    "discord-bot-token": ("Discord bot token", "https://discord.com/developers/applications"),
    "telegram-bot-token": ("Telegram bot token", "https://core.telegram.org/bots/features#botfather"),
    "vercel-token": ("Vercel token", "https://vercel.com/account/tokens"),
    "linear-api-key": ("Linear API key", "https://linear.app/settings/api"),
    "notion-token": ("Notion token", "https://www.notion.so/my-integrations"),
    "groq-api-key": ("Groq API key", "https://console.groq.com/keys"),
    "databricks-token": ("Databricks token", "https://docs.databricks.com/en/dev-tools/auth/pat.html"),
    "docker-token": ("Docker Hub token", "https://app.docker.com/settings/personal-access-tokens"),
    "shopify-token": ("Shopify token", "https://admin.shopify.com/settings/apps"),
    "sentry-token": ("Sentry token", "https://sentry.io/settings/account/api/auth-tokens/"),
    "figma-token": ("Figma token", "https://www.figma.com/developers/api#access-tokens"),
    "azure-storage-key": ("Azure storage key", "https://portal.azure.com/#view/HubsExtension/BrowseResource/resourceType/Microsoft.Storage%2FStorageAccounts"),
    "azure-ad-client-secret": ("Azure AD client secret", "https://portal.azure.com/#view/Microsoft_AAD_RegisteredApps/ApplicationsListBlade"),
    "private-key": ("private key", ""),
    "jwt": ("JSON Web Token", ""),
    "jwt-base64": ("JSON Web Token (base64)", ""),
    "database-url": ("database URL with a password", ""),
    "url-credentials": ("URL with credentials", ""),
}

GENERIC_ADVICE = "revoke it where it was issued and issue a new one; then scrub the logs (sweep --scrub)"
_PRIVATE_KEY_ADVICE = "replace the key pair: remove the public key wherever it is trusted, then make a new one"
_JWT_ADVICE = "a token signed by its issuer: end the session it belongs to, or rotate the signing key if it does not expire"
_DB_ADVICE = "change that database user's password, then update whatever connects with it"


_URL_BEFORE = re.compile(r"([A-Za-z][A-Za-z0-9+.:\-]{1,24}://)[^\s:/?#@\"'<>]*:$")


def class_of(rule: str, text: str, start: int) -> str:
    """The class a sweep reports for a finding of `rule` at `start` in `text` (for a URL's
    password, the scheme before it says whether it is a database's)."""
    if rule == "url-credentials":
        m = _URL_BEFORE.search(text, max(0, start - 200), start)
        if m is not None and _DB_SCHEMES.fullmatch(m.group(1)):
            return "database-url"
    return rule


def advice(cls: str) -> tuple[str, str]:
    """(what to do, the rotation page or "") for a class."""
    _, url = ROTATION.get(cls, ("", ""))
    if cls == "private-key":
        return _PRIVATE_KEY_ADVICE, url
    if cls.startswith("jwt"):
        return _JWT_ADVICE, url
    if cls == "database-url":
        return _DB_ADVICE, url
    if url:
        return f"rotate it at {url}", url
    return GENERIC_ADVICE, url


def title(cls: str) -> str:
    """A class's name for a person."""
    return ROTATION.get(cls, (cls.replace("-", " "), ""))[0]
