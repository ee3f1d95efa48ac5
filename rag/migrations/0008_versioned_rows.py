import django.db.models.deletion
from django.db import migrations, models

# Versions of a repository share rows (rag/storage.py). Every per-version row
# now names its *store* (the run whose full build created its partition and
# rows; the column that named the run) and the range of versions it belongs
# to. Rows written before this migration belong to exactly their run's
# version: since 0, until "open", in a store that is their run, so every
# existing version reads what it read before.
OPEN_END = 2**63 - 1
RELATIONAL = ("rag_sourcefile", "rag_symbol", "rag_edge", "rag_entrypoint")

FORWARD_SQL = f"""
ALTER TABLE rag_item RENAME COLUMN run_id TO store_id;
ALTER TABLE rag_item ADD COLUMN since_run bigint NOT NULL DEFAULT 0,
    ADD COLUMN until_run bigint NOT NULL DEFAULT {OPEN_END};
UPDATE rag_indexrun SET store_id = id WHERE has_items;
""" + "".join(
    f"ALTER TABLE {table} RENAME COLUMN run_id TO store_id;\n"
    f"ALTER TABLE {table} ADD COLUMN since_run bigint NOT NULL DEFAULT 0, "
    f"ADD COLUMN until_run bigint NOT NULL DEFAULT {OPEN_END};\n"
    for table in RELATIONAL
)
REVERSE_SQL = """
ALTER TABLE rag_item DROP COLUMN since_run, DROP COLUMN until_run;
ALTER TABLE rag_item RENAME COLUMN store_id TO run_id;
""" + "".join(
    f"ALTER TABLE {table} DROP COLUMN since_run, DROP COLUMN until_run;\n"
    f"ALTER TABLE {table} RENAME COLUMN store_id TO run_id;\n"
    for table in RELATIONAL
)


def _versioned_fields(model_name: str) -> list:
    return [
        migrations.RenameField(model_name=model_name, old_name="run", new_name="store"),
        migrations.AlterField(
            model_name=model_name, name="store",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to="rag.indexrun"),
        ),
        migrations.AddField(model_name=model_name, name="since_run", field=models.BigIntegerField(default=0)),
        migrations.AddField(model_name=model_name, name="until_run", field=models.BigIntegerField(default=OPEN_END)),
    ]


class Migration(migrations.Migration):

    dependencies = [
        ("rag", "0007_git_remotes"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="sourcefile", name="rag_sourcefile_unique_path"),
        migrations.RemoveIndex(model_name="symbol", name="rag_symbol_run_qname"),
        migrations.RemoveIndex(model_name="symbol", name="rag_symbol_run_name"),
        migrations.RemoveIndex(model_name="edge", name="rag_edge_run_src"),
        migrations.RemoveIndex(model_name="edge", name="rag_edge_run_dst"),
        migrations.RemoveIndex(model_name="entrypoint", name="rag_entrypoint_run_type"),
        migrations.AddField(
            model_name="indexrun", name="store",
            field=models.ForeignKey(
                blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+", to="rag.indexrun",
            ),
        ),
        migrations.RunSQL(
            FORWARD_SQL,
            REVERSE_SQL,
            state_operations=[
                migrations.AddField(
                    model_name="item", name="store",
                    field=models.ForeignKey(
                        db_constraint=False, on_delete=django.db.models.deletion.DO_NOTHING, related_name="+",
                        to="rag.indexrun",
                    ),
                ),
                migrations.AddField(model_name="item", name="since_run", field=models.BigIntegerField()),
                migrations.AddField(model_name="item", name="until_run", field=models.BigIntegerField()),
                *[
                    op
                    for name in ("sourcefile", "symbol", "edge", "entrypoint")
                    for op in _versioned_fields(name)
                ],
            ],
        ),
        migrations.AddField(model_name="sourcefile", name="rows_digest", field=models.CharField(blank=True, max_length=32)),
        migrations.AddIndex(model_name="symbol", index=models.Index(fields=["store", "qname"], name="rag_symbol_run_qname")),
        migrations.AddIndex(model_name="symbol", index=models.Index(fields=["store", "name"], name="rag_symbol_run_name")),
        migrations.AddIndex(model_name="edge", index=models.Index(fields=["store", "src"], name="rag_edge_run_src")),
        migrations.AddIndex(model_name="edge", index=models.Index(fields=["store", "dst"], name="rag_edge_run_dst")),
        migrations.AddIndex(
            model_name="entrypoint", index=models.Index(fields=["store", "entry_type"], name="rag_entrypoint_run_type")
        ),
        migrations.AddConstraint(
            model_name="sourcefile",
            constraint=models.UniqueConstraint(fields=("store", "path", "since_run"), name="rag_sourcefile_unique_path"),
        ),
    ]
