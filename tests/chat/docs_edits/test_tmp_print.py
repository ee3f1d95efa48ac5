from tests.chat.docs_edits.test_edits_graph import *
def test_p(shopapp, model, tmp_path):
    model.script(
        plan((PRICING, "raise ValueError for negative amounts"), (TASKS, "purge after 14 days")),
        Reply.text(GOOD_PRICING_DIFF),
        *[Reply.text(STALE_TASKS_DIFF)] * MAX_ATTEMPTS,
    )
    final, events = run_graph(EDITS_GRAPH, "Reject negative amounts and purge carts after 14 days", shopapp)
    print(texts(events))
    from chat.markdown import render_markdown
    print(render_markdown(texts(events))[:3000])
