"""Which chat blocks a message row makes: the helpers the chat mutants share
to bend one rule only, on the blocks of the rows that rule decides."""


def direct_record(row):
    """The role record of a row whose envelope is direct (`content` itself
    carries the role), or None."""
    content = row.get("content") if isinstance(row, dict) else None
    if isinstance(content, dict) and content.get("role") in ("user", "agent"):
        return content
    return None


def row_ids(case_input, wanted):
    """The ids (strings) of the rows whose direct role record passes wanted(record)."""
    rows = case_input.get("messages") if isinstance(case_input, dict) else None
    ids = set()
    for row in rows if isinstance(rows, list) else []:
        record = direct_record(row)
        if record is not None and isinstance(row.get("id"), str) and wanted(record):
            ids.add(row["id"])
    return ids


def made_by(block, ids):
    """Whether block (an output object) was made from one of the rows ids
    names: its id is `<row id>` or `<row id>:<n>`."""
    block_id = block.get("id") if isinstance(block, dict) else None
    return isinstance(block_id, str) and (block_id in ids or block_id.split(":")[0] in ids)
