from django.db import migrations, models

# A new index version copies its unchanged items from the previous version's
# table (rag/storage.py): ``row_hash`` tells which rows are unchanged, and
# ``search`` becomes a plain column so a copied row keeps its tsvector instead
# of having it computed again. Each partition still computes it for the rows
# it receives with COPY, with the same expression. Dropping the expression
# keeps every value and rewrites nothing.
FORWARD_SQL = """
ALTER TABLE rag_item ALTER COLUMN search DROP EXPRESSION;
ALTER TABLE rag_item ADD COLUMN row_hash varchar(32) NOT NULL DEFAULT '';
"""

# Back to a generated column: recomputed for every row, and the per-partition
# GIN indexes, dropped with the old column, are built again.
REVERSE_SQL = """
ALTER TABLE rag_item DROP COLUMN row_hash;
ALTER TABLE rag_item DROP COLUMN search;
ALTER TABLE rag_item ADD COLUMN search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, title || ' ' || title_terms), 'A')
    || setweight(to_tsvector('english'::regconfig, left(content, 200000) || ' ' || body_terms), 'B')
) STORED;
DO $$
DECLARE part regclass;
BEGIN
    FOR part IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'rag_item'::regclass LOOP
        EXECUTE format('CREATE INDEX %I ON %s USING gin (search)', part::text || '_search', part);
    END LOOP;
END $$;
"""


class Migration(migrations.Migration):

    dependencies = [
        ("rag", "0004_indexrun_reindex_trigger"),
    ]

    operations = [
        migrations.RunSQL(
            FORWARD_SQL,
            REVERSE_SQL,
            state_operations=[
                migrations.AddField(model_name="item", name="row_hash", field=models.CharField(max_length=32)),
            ],
        ),
    ]
