from django.db import migrations

# Per file of an index version: how many of its items have each of its store's common words
# (``IndexRun.common_words``), written when the version is built (rag/storage.py,
# ``count_common_words``) so a search's whole-file ranking reads the counts instead of
# counting thousands of items per word. Rows are shared by versions as items are
# (``store_id``, ``since_run``, ``until_run``) and go with the store's items partition (no foreign
# key, as ``rag_item`` has none: flushing Django's tables must not be refused). No model: only
# raw SQL reads and writes them.
OPEN_END = 2**63 - 1

FORWARD_SQL = f"""
CREATE TABLE rag_file_common_words (
    store_id bigint NOT NULL,
    since_run bigint NOT NULL,
    until_run bigint NOT NULL DEFAULT {OPEN_END},
    is_doc boolean NOT NULL,
    path text NOT NULL,
    words smallint[] NOT NULL,
    items integer[] NOT NULL
);
CREATE INDEX rag_file_common_words_path ON rag_file_common_words (store_id, path);
"""
REVERSE_SQL = "DROP TABLE rag_file_common_words;"


class Migration(migrations.Migration):

    dependencies = [
        ("rag", "0008_versioned_rows"),
    ]

    operations = [migrations.RunSQL(FORWARD_SQL, REVERSE_SQL)]
