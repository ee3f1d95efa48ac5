from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("rag", "0005_item_row_hash_plain_search"),
    ]

    operations = [
        migrations.AddField(
            model_name="indexrun",
            name="item_format",
            field=models.CharField(blank=True, max_length=32),
        ),
    ]
