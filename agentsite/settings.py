"""Settings of the product, read from the environment (and an optional ``.env``).

Every variable is listed in docs/SETTINGS.md. Bad values raise
``ImproperlyConfigured`` at start-up.
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from dotenv import load_dotenv

from agentsite.environment import env_bool, env_choice, env_float, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

# A .env beside manage.py fills in variables that the environment does not set.
load_dotenv(BASE_DIR / ".env", override=False)

DATA_DIR = Path(env_str("AGENTSITE_DATA_DIR", str(BASE_DIR / "var"))).expanduser().resolve()
DATA_DIR.mkdir(parents=True, exist_ok=True)


def _secret_key() -> str:
    configured = env_str("SECRET_KEY")
    if configured:
        return configured
    # Generated once per data dir so sessions survive restarts of a local install.
    key_file = DATA_DIR / "secret_key"
    if not key_file.exists():
        # Written to a file only the server's user can read from its creation, then linked into
        # place in one step: never readable by others, never seen half-written by another process.
        draft = DATA_DIR / f".secret_key.{os.getpid()}"
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_urlsafe(50))
        try:
            os.link(draft, key_file)
        except FileExistsError:
            pass  # another process made it first: use theirs
        finally:
            draft.unlink()
    return key_file.read_text().strip()


SECRET_KEY = _secret_key()

# --- Behind a TLS proxy (docs/SECURITY.md) ------------------------------------------
# HTTPS: the site is reached over https only: secure cookies, redirects to https, HSTS.
HTTPS = env_bool("HTTPS", False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = env_int("HSTS_SECONDS", 31_536_000 if HTTPS else 0, minimum=0)
# Both only when every subdomain is served over https too (preload: for submitting the domain to browsers).
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", False)
# TRUST_PROXY_HEADERS: a proxy in front sets X-Forwarded-Proto (and X-Forwarded-For, which `serve`
# passes to daphne); only with a proxy that overwrites them, or clients could claim any.
TRUST_PROXY_HEADERS = env_bool("TRUST_PROXY_HEADERS", False)
if TRUST_PROXY_HEADERS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
HOST = env_str("HOST", "127.0.0.1")
PORT = env_int("PORT", 8000, minimum=1, maximum=65535)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "channels",
    "django_htmx",
    "procrastinate.contrib.django",
    "axes",
    "agentsite",
    "llm",
    "rag",
    "chat",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its 429 page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "agentsite.urls"
ASGI_APPLICATION = "agentsite.asgi.application"
# How often (ms) the web server process's interpreter lets another thread take
# the GIL. The event loop serves every socket; when the database thread runs
# Python, the loop waits up to this long after each socket call to get the GIL
# back. Python's default is 5 ms (see agentsite/asgi.py).
ASGI_SWITCH_INTERVAL_MS = env_float("ASGI_SWITCH_INTERVAL_MS", 0.5, minimum=0.05, maximum=100.0)
# Allocations between collections of the youngest objects in the web server
# process (Python's default: 700); older generations follow every 20 of the
# one below. The objects of the process's start are frozen (agentsite/asgi.py).
ASGI_GC_THRESHOLD = env_int("ASGI_GC_THRESHOLD", 10000, minimum=100)

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL")
# Each test run gets its own database so two runs at once never collide.
_TEST_DATABASE = {"NAME": f"test_agentsite_{os.getpid()}"}
# 0 opens a connection per request (or per database call of a websocket); the
# web server started by `serve` keeps them (see agentsite/management/commands/serve.py).
DATABASE_CONN_MAX_AGE = env_int("DATABASE_CONN_MAX_AGE", 0, minimum=0)
# Threads (each with its own connection) that async code such as the chat's
# websocket runs its self-contained database work on (database_pool/).
DATABASE_THREADS = env_int("DATABASE_THREADS", 4, minimum=1, maximum=64)

if DATABASE_URL:
    try:
        _db = dj_database_url.parse(DATABASE_URL, conn_max_age=DATABASE_CONN_MAX_AGE)
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL cannot be parsed: {exc}") from exc
    if _db.get("ENGINE") != "django.db.backends.postgresql":
        raise ImproperlyConfigured("DATABASE_URL must point at PostgreSQL (postgres://...) with the pgvector extension")
    EMBEDDED_POSTGRES = None
else:
    from agentsite import embedded_postgres

    EMBEDDED_POSTGRES = embedded_postgres.attach(DATA_DIR)
    # AGENTSITE_DB_NAME (below) points a process at another database of the same server; created on first use too.
    embedded_postgres.ensure_database(EMBEDDED_POSTGRES, env_str("AGENTSITE_DB_NAME") or "agentsite")
    _db = {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "agentsite",
        "USER": "postgres",
        "HOST": str(EMBEDDED_POSTGRES.socket_dir),
        "PORT": "",
        "CONN_MAX_AGE": DATABASE_CONN_MAX_AGE,
    }
_db["CONN_HEALTH_CHECKS"] = True
# A statement running longer than this is cancelled by PostgreSQL (0: no limit). `serve` gives its
# web server WEB_STATEMENT_TIMEOUT_MS, so no request holds a connection and a core for long; the
# worker and commands (index runs build large indexes) keep no limit unless this is set for them.
DATABASE_STATEMENT_TIMEOUT_MS = env_int("DATABASE_STATEMENT_TIMEOUT_MS", 0, minimum=0)
WEB_STATEMENT_TIMEOUT_MS = env_int("WEB_STATEMENT_TIMEOUT_MS", 30_000, minimum=0)
# `serve` has its web server keep database connections for this many seconds unless
# DATABASE_CONN_MAX_AGE says otherwise: with a connection per database call,
# hundreds of streaming chats spend most of their time connecting.
WEB_CONN_MAX_AGE = 60
if DATABASE_STATEMENT_TIMEOUT_MS:
    _db.setdefault("OPTIONS", {})["options"] = f"-c statement_timeout={DATABASE_STATEMENT_TIMEOUT_MS}"
# Points a process at another database on the same server (the test suite uses
# it to run real worker and web processes against its test database).
if env_str("AGENTSITE_DB_NAME"):
    _db["NAME"] = env_str("AGENTSITE_DB_NAME")
_db["TEST"] = _TEST_DATABASE
DATABASES = {"default": _db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channels, cache ---------------------------------------------------------
REDIS_URL = env_str("REDIS_URL")
# The channel layer's Redis connections read without a socket timeout, as redis-py did before 8.0.
# Its default of 5 s fails the layer's blocking pop (BZPOPMIN, 5 s) and with it every idle page's
# consumer; and each command it bounds goes through Python 3.11's ``asyncio.wait_for``, which drops
# a cancellation that arrives as the command completes (an answer's Stop, lost).
REDIS_CHANNEL_HOST_OPTIONS = {"socket_timeout": None}
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS_URL, **REDIS_CHANNEL_HOST_OPTIONS}]},
        },
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Auth --------------------------------------------------------------------
# Failed logins are counted in the database (shared by every server process) by django-axes:
# LOGIN_FAILURE_LIMIT failures for one username, or from one client address, lock further
# attempts out for LOGIN_LOCKOUT_MINUTES (HTTP 429); a successful login clears the count.
AXES_ENABLED = env_bool("LOGIN_THROTTLE", True)
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"
SESSION_COOKIE_AGE = env_int("SESSION_COOKIE_AGE", 14 * 24 * 3600, minimum=60)
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

# --- I18N, static, media -------------------------------------------------------
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = DATA_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
MEDIA_ROOT = DATA_DIR / "media"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Served from the finders as well, so a fresh checkout works before collectstatic.
WHITENOISE_USE_FINDERS = True

# Request bodies larger than this are refused while they stream (agentsite/request_limits.py);
# repository uploads have RAG_MAX_UPLOAD_BYTES instead.
MAX_REQUEST_BODY_BYTES = env_int("MAX_REQUEST_BODY_BYTES", 5 * 1024 * 1024, minimum=64 * 1024)

# --- MCP (chat/mcp/, docs/MCP.md) ----------------------------------------------------
# Calls one personal access token may make per minute (tools and resource reads), counted in the
# database so the limit holds across server processes.
MCP_CALLS_PER_MINUTE = env_int("MCP_CALLS_PER_MINUTE", 120, minimum=1)
# How long an ``ask`` over MCP may take before it is stopped with a tool error.
MCP_ASK_TIMEOUT_SECONDS = env_float("MCP_ASK_TIMEOUT_SECONDS", 300.0, minimum=1.0)

# --- Background work -------------------------------------------------------------
# A worker whose last heartbeat is older than this counts as down in /healthz.
WORKER_HEARTBEAT_MAX_AGE = env_int("WORKER_HEARTBEAT_MAX_AGE", 60, minimum=5)
# Workers record a heartbeat this often; a worker silent for WORKER_STALLED_SECONDS is
# taken for dead: its running index job is failed and its repository freed by the
# recovery job, which runs every WORKER_RECOVERY_SECONDS (rag/tasks.py). A killed
# worker's run is so failed within STALLED + RECOVERY seconds (40 s by default).
WORKER_HEARTBEAT_SECONDS = env_float("WORKER_HEARTBEAT_SECONDS", 10.0, minimum=0.2, maximum=60.0)
WORKER_STALLED_SECONDS = env_int("WORKER_STALLED_SECONDS", 30, minimum=1)
WORKER_RECOVERY_SECONDS = env_int("WORKER_RECOVERY_SECONDS", 10, minimum=1, maximum=59)
if WORKER_STALLED_SECONDS <= WORKER_HEARTBEAT_SECONDS:
    raise ImproperlyConfigured("WORKER_STALLED_SECONDS must be longer than WORKER_HEARTBEAT_SECONDS")
PROCRASTINATE_WORKER_DEFAULTS = {
    "update_heartbeat_interval": WORKER_HEARTBEAT_SECONDS,
    "stalled_worker_timeout": float(WORKER_STALLED_SECONDS),
}

# --- Logging ---------------------------------------------------------------------
LOG_LEVEL = env_choice("LOG_LEVEL", "info", ("debug", "info", "warning", "error")).upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "pgserver": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
        "httpx2": {"level": "WARNING"},
        # The MCP SDK logs every request it serves at INFO (chat/mcp/).
        "mcp": {"level": "WARNING"},
        "daphne": {"level": "WARNING"},
        "procrastinate": {"level": "WARNING"},
        "axes": {"level": "WARNING"},
    },
}

# --- The product's own settings --------------------------------------------------
# LLM: providers, models and their windows, prompts, audit (llm/).
LLM = {
    "PROVIDER": env_choice("LLM_PROVIDER", "auto", ("auto", "offline", "gigachat", "openai", "gemini")),
    "PROMPTS_DIR": env_str("AGENT_PROMPTS_DIR", str(BASE_DIR / "llm" / "prompts")),
    # Prompt lookups cached per process (0: off); a save empties the saving process's cache at once.
    "PROMPT_CACHE_SECONDS": env_float("LLM_PROMPT_CACHE_SECONDS", 30.0, minimum=0.0),
    "AUDIT_DIR": env_str("LLM_AUDIT_DIR"),
    "REQUEST_TIMEOUT": env_float("LLM_REQUEST_TIMEOUT", 90.0, minimum=1.0),
    "MAX_RETRIES": env_int("LLM_MAX_RETRIES", 3, minimum=0, maximum=10),
    "RETRY_INITIAL_INTERVAL": env_float("LLM_RETRY_INITIAL_INTERVAL", 0.5, minimum=0.0),
    "RETRY_MAX_INTERVAL": env_float("LLM_RETRY_MAX_INTERVAL", 30.0, minimum=0.0),
    "AUDIT": env_bool("LLM_AUDIT", True),
    "LOG_TEXT_LIMIT": env_int("LLM_LOG_TEXT_LIMIT", 1500, minimum=100),
    # Concurrent connections per provider and process: one per streaming answer in flight.
    "MAX_CONNECTIONS": env_int("LLM_MAX_CONNECTIONS", 256, minimum=1),
    # Bearer token for /metrics (staff sessions need none); empty: staff only.
    "METRICS_TOKEN": env_str("METRICS_TOKEN"),
    # Long dialogs (llm/conversation): when to warm up a summarized standby context and swap it in.
    "CONVERSATION": {
        "WARMUP_THRESHOLD_RATIO": env_float("LLM_WARMUP_THRESHOLD_RATIO", 0.5, minimum=0.05, maximum=0.95),
        "HANDOVER_THRESHOLD_RATIO": env_float("LLM_HANDOVER_THRESHOLD_RATIO", 0.9, minimum=0.1, maximum=1.0),
        "RECENT_RATIO": env_float("LLM_RECENT_RATIO", 0.15, minimum=0.0, maximum=0.5),
        "SUMMARY_RATIO": env_float("LLM_SUMMARY_RATIO", 0.1, minimum=0.01, maximum=0.5),
        "ANSWER_RESERVE_RATIO": env_float("LLM_ANSWER_RESERVE_RATIO", 0.1, minimum=0.01, maximum=0.5),
        "MAX_ANSWER_TOKENS": env_int("LLM_MAX_ANSWER_TOKENS", 4096, minimum=64),
        "SUMMARY_CACHE_SECONDS": env_int("LLM_SUMMARY_CACHE_SECONDS", 24 * 3600, minimum=0),
        "STRUCTURED": env_bool("LLM_STRUCTURED_ANSWERS", False),
    },
    # Per provider: connection, models by purpose, and each model's context window in tokens.
    "PROVIDERS": {
        "gigachat": {
            "AUTH_URL": env_str("GIGACHAT_AUTH_URL", "https://ngw.devices.sberbank.ru:9443/api/v2/oauth"),
            "API_URL": env_str("GIGACHAT_API_URL", "https://gigachat.devices.sberbank.ru/api/v1"),
            "SCOPE": env_str("GIGACHAT_SCOPE", "GIGACHAT_API_PERS"),
            "TOKEN": env_str("GIGACHAT_TOKEN"),
            "SSL_VERIFY": env_bool("GIGACHAT_SSL_VERIFY", True),
            "CA_BUNDLE": env_str("GIGACHAT_CA_BUNDLE"),
            "AUTH_TIMEOUT": env_float("GIGACHAT_AUTH_TIMEOUT", 30.0, minimum=1.0),
            "TIMEOUT": env_float("GIGACHAT_TIMEOUT", 90.0, minimum=1.0),
            "EMBEDDINGS_TIMEOUT": env_float("GIGACHAT_EMBEDDINGS_TIMEOUT", 90.0, minimum=1.0),
            "EMBED_BATCH_SIZE": env_int("GIGACHAT_EMBED_BATCH_SIZE", 16, minimum=1, maximum=512),
            "MODELS": {
                "main": env_str("GIGACHAT_MODEL", "GigaChat"),
                "summarization": env_str("GIGACHAT_SUMMARIZATION_MODEL", env_str("GIGACHAT_MODEL", "GigaChat")),
                "embeddings": env_str("GIGACHAT_EMBEDDING_MODEL", "Embeddings"),
            },
            "CONTEXT_WINDOWS": {
                "main": env_int("GIGACHAT_CONTEXT_WINDOW", 32768, minimum=1024),
                "summarization": env_int("GIGACHAT_SUMMARIZATION_CONTEXT_WINDOW", 32768, minimum=1024),
            },
        },
        "openai": {
            # Empty: https://api.openai.com/v1. Any OpenAI-compatible server works here.
            "BASE_URL": env_str("OPENAI_BASE_URL"),
            "API_KEY": env_str("OPENAI_API_KEY"),
            "TIMEOUT": env_float("OPENAI_TIMEOUT", env_float("LLM_REQUEST_TIMEOUT", 90.0, minimum=1.0), minimum=1.0),
            "EMBEDDINGS_TIMEOUT": env_float("OPENAI_EMBEDDINGS_TIMEOUT", 90.0, minimum=1.0),
            "EMBED_BATCH_SIZE": env_int("OPENAI_EMBED_BATCH_SIZE", 64, minimum=1, maximum=2048),
            # Reasoning models (o-series and newer) take max_completion_tokens instead of max_tokens.
            "REASONING_MODEL": env_bool("OPENAI_REASONING_MODEL", False),
            # Their reasoning_effort on every call (empty: the model's default effort).
            "REASONING_EFFORT": env_choice("OPENAI_REASONING_EFFORT", "", ("", "low", "medium", "high")),
            # False for models whose chat template has no system role: system text goes into the first user message.
            "SYSTEM_ROLE": env_bool("OPENAI_SYSTEM_ROLE", True),
            "MODELS": {
                "main": env_str("OPENAI_MODEL", "gpt-4o-mini"),
                "summarization": env_str("OPENAI_SUMMARIZATION_MODEL", env_str("OPENAI_MODEL", "gpt-4o-mini")),
                "embeddings": env_str("OPENAI_EMBEDDING_MODEL", "text-embedding-3-small"),
            },
            "CONTEXT_WINDOWS": {
                "main": env_int("OPENAI_CONTEXT_WINDOW", 128000, minimum=1024),
                "summarization": env_int("OPENAI_SUMMARIZATION_CONTEXT_WINDOW", 128000, minimum=1024),
            },
        },
        "gemini": {
            "BASE_URL": env_str("GEMINI_BASE_URL", "https://generativelanguage.googleapis.com/v1beta"),
            "API_KEY": env_str("GEMINI_API_KEY"),
            "TIMEOUT": env_float("GEMINI_TIMEOUT", env_float("LLM_REQUEST_TIMEOUT", 90.0, minimum=1.0), minimum=1.0),
            "EMBEDDINGS_TIMEOUT": env_float("GEMINI_EMBEDDINGS_TIMEOUT", 90.0, minimum=1.0),
            "EMBED_BATCH_SIZE": env_int("GEMINI_EMBED_BATCH_SIZE", 100, minimum=1, maximum=100),
            "MODELS": {
                "main": env_str("GEMINI_MODEL", "gemini-2.0-flash"),
                "summarization": env_str("GEMINI_SUMMARIZATION_MODEL", env_str("GEMINI_MODEL", "gemini-2.0-flash")),
                "embeddings": env_str("GEMINI_EMBEDDING_MODEL", "text-embedding-004"),
            },
            "CONTEXT_WINDOWS": {
                "main": env_int("GEMINI_CONTEXT_WINDOW", 1048576, minimum=1024),
                "summarization": env_int("GEMINI_SUMMARIZATION_CONTEXT_WINDOW", 1048576, minimum=1024),
            },
        },
        "offline": {
            "CONTEXT_WINDOWS": {"main": 8192, "summarization": 8192},
        },
    },
}

if LLM["PROVIDERS"]["openai"]["REASONING_EFFORT"] and not LLM["PROVIDERS"]["openai"]["REASONING_MODEL"]:
    # Other models refuse reasoning_effort, so the adapter would leave it out without a word.
    raise ImproperlyConfigured("OPENAI_REASONING_EFFORT needs OPENAI_REASONING_MODEL=true: other models refuse reasoning_effort")

# RAG: repository intake limits, indexing and retrieval (rag/).
RAG = {
    "MAX_UPLOAD_BYTES": env_int("RAG_MAX_UPLOAD_BYTES", 200 * 1024 * 1024, minimum=1024),
    "MAX_UNCOMPRESSED_BYTES": env_int("RAG_MAX_UNCOMPRESSED_BYTES", 1024 * 1024 * 1024, minimum=1024),
    "MAX_ENTRIES": env_int("RAG_MAX_ENTRIES", 50_000, minimum=1),
    "MAX_COMPRESSION_RATIO": env_float("RAG_MAX_COMPRESSION_RATIO", 100.0, minimum=1.0),
    "MAX_FILE_BYTES": env_int("RAG_MAX_FILE_BYTES", 1024 * 1024, minimum=1),
    "UPLOAD_DIR": env_str("RAG_UPLOAD_DIR", str(DATA_DIR / "uploads")),
    "EMBEDDER": env_str("RAG_EMBEDDER", "hashing"),
    "EMBED_BATCH_SIZE": env_int("RAG_EMBED_BATCH_SIZE", 16, minimum=1, maximum=2048),
    "HNSW_EF_SEARCH": env_int("RAG_HNSW_EF_SEARCH", 100, minimum=1, maximum=1000),
    "KEEP_SUPERSEDED": env_int("RAG_KEEP_SUPERSEDED", 1, minimum=0),
    # A new version is written into the store of the one before it (only its changed files'
    # rows) when at most this share of the files changed; above it, a new store is built
    # (rag/storage.py), which also sheds the ended rows. 0 builds every version anew.
    "REWRITE_SHARE": env_float("RAG_REWRITE_SHARE", 0.3, minimum=0.0, maximum=1.0),
    # Git remotes (rag/sources/git.py, docs/GIT.md): bare mirrors, the limit on every git call,
    # whether remotes may be on loopback or private networks, and the key credentials are encrypted with.
    "GIT_DIR": env_str("RAG_GIT_DIR", str(DATA_DIR / "git")),
    "GIT_TIMEOUT_SECONDS": env_float("RAG_GIT_TIMEOUT_SECONDS", 120.0, minimum=1.0),
    "GIT_ALLOW_PRIVATE_ADDRESSES": env_bool("RAG_GIT_ALLOW_PRIVATE_ADDRESSES", False),
    "GIT_DEFAULT_SYNC_MINUTES": env_int("RAG_GIT_DEFAULT_SYNC_MINUTES", 0, minimum=0),
    # Fernet key (urlsafe base64 of 32 bytes); empty: derived from SECRET_KEY.
    "CREDENTIALS_KEY": env_str("RAG_CREDENTIALS_KEY"),
    # The limit of one exact text search (rag/services/text_search.py): a pattern that needs longer is refused.
    "TEXT_SEARCH_TIMEOUT_MS": env_int("RAG_TEXT_SEARCH_TIMEOUT_MS", 5000, minimum=10),
}

# CHAT: the chat pages and the websocket consumer (chat/).
CHAT = {
    "MAX_RUNNING_GENERATIONS": env_int("CHAT_MAX_RUNNING_GENERATIONS", 3, minimum=1),
    "FLUSH_SECONDS": env_float("CHAT_FLUSH_SECONDS", 1.0, minimum=0.05, maximum=10.0),
    # A running answer is stored at least this often; one not stored for three times as long
    # is shown as interrupted (its server process stopped).
    "ANSWER_HEARTBEAT_SECONDS": env_float("CHAT_ANSWER_HEARTBEAT_SECONDS", 10.0, minimum=0.2, maximum=300.0),
    # Frames that reach a page within this many ms of its last websocket message go out together in the next one.
    "FRAME_INTERVAL_MS": env_int("CHAT_FRAME_INTERVAL_MS", 50, minimum=0, maximum=1000),
    # With many answers streaming in one process, each page's interval stretches so that all
    # pages together get at most this many messages a second, up to FRAME_INTERVAL_MAX_MS.
    "FRAMES_PER_SECOND": env_int("CHAT_FRAMES_PER_SECOND", 2000, minimum=1),
    "FRAME_INTERVAL_MAX_MS": env_int("CHAT_FRAME_INTERVAL_MAX_MS", 200, minimum=0, maximum=5000),
    "MAX_MESSAGE_CHARS": env_int("CHAT_MAX_MESSAGE_CHARS", 20000, minimum=100),
    # Websocket messages a page may send: this many a second on average, in bursts of SOCKET_MESSAGE_BURST.
    "SOCKET_MESSAGES_PER_SECOND": env_float("CHAT_SOCKET_MESSAGES_PER_SECOND", 5.0, minimum=0.1),
    "SOCKET_MESSAGE_BURST": env_int("CHAT_SOCKET_MESSAGE_BURST", 20, minimum=1),
    # Bytes the web server keeps for a page whose socket is full (it does not read) before dropping it.
    "SOCKET_MAX_UNREAD_BYTES": env_int("CHAT_SOCKET_MAX_UNREAD_BYTES", 2 * 1024 * 1024, minimum=64 * 1024),
    # Chats whose conversation manager (dual-context handover) a server process keeps (chat/conversations.py).
    "ACTIVE_CONVERSATIONS": env_int("CHAT_ACTIVE_CONVERSATIONS", 256, minimum=1),
    # The agent (chat/agent/config.py): tool rounds, retrieval caps, in-turn summarization.
    "AGENT_MAX_TOOL_ROUNDS": env_int("CHAT_AGENT_MAX_TOOL_ROUNDS", 6, minimum=0, maximum=50),
    "AGENT_RETRIEVED_ITEMS": env_int("CHAT_AGENT_RETRIEVED_ITEMS", 12, minimum=1, maximum=200),
    "AGENT_FILE_CANDIDATES": env_int("CHAT_AGENT_FILE_CANDIDATES", 10, minimum=1, maximum=100),
    "AGENT_SUMMARIZE_AT": env_float("CHAT_AGENT_SUMMARIZE_AT", 0.8, minimum=0.1, maximum=1.0),
    "AGENT_TOOL_RESULT_CHARS": env_int("CHAT_AGENT_TOOL_RESULT_CHARS", 12000, minimum=500),
    "AGENT_HISTORY_SHARE": env_float("CHAT_AGENT_HISTORY_SHARE", 0.3, minimum=0.0, maximum=0.9),
    # Answers as {internal_thought, is_safe, answer} JSON: only the answer is shown, unsafe ones are flagged.
    "STRUCTURED_ANSWERS": env_bool("CHAT_STRUCTURED_ANSWERS", False),
}
