"""python manage.py bench_query_analysis [--sizes 4096,16384,65536] [--repeats 3]"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from rag.benchmarks.hostile_queries import SHAPES, analysis_seconds


class Command(BaseCommand):
    help = "Time the analysis of hostile query texts as they grow (fastest of several runs) and the growth ratio."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--sizes", default="4096,16384,65536", help="query sizes in characters, comma-separated")
        parser.add_argument("--repeats", type=int, default=3)

    def handle(self, *args, sizes: str, repeats: int, **options) -> None:
        try:
            steps = sorted({int(size) for size in sizes.split(",") if size.strip()})
        except ValueError as exc:
            raise CommandError(f"--sizes must be numbers: {exc}") from exc
        if len(steps) < 2 or steps[0] < 16:
            raise CommandError("--sizes needs at least two sizes of 16 characters or more")
        out = self.stdout.write
        header = " | ".join(f"{size:,} chars" for size in steps)
        out(f"| shape | {header} | ratio {steps[-1] // steps[0]}x size |")
        out("|---|" + "---:|" * (len(steps) + 1))
        for shape in SHAPES:
            times = [analysis_seconds(shape.text(size), repeats) for size in steps]
            cells = " | ".join(f"{seconds * 1000:.2f} ms" for seconds in times)
            out(f"| {shape.name} | {cells} | {times[-1] / max(times[0], 1e-6):.1f}x |")
