"""Server-sent events read from a response's bytes: the ``data`` of each event.

A streamed answer arrives as one small event per token, and a web process
reads hundreds of such streams at once, so what is done per chunk is paid per
token. This decoder takes the response's raw chunks and splits complete lines
as bytes (a UTF-8 character never contains a newline byte, so every complete
line decodes on its own); it keeps only what the adapters read. It follows
the event-stream format of the HTML standard, as httpx-sse does (the tests
hold the two to the same payloads):

- lines end in CRLF, LF or CR; a blank line ends an event, whose data is its
  ``data`` lines joined by newlines (an event without data is not reported);
- one space after a field's colon is dropped; a line without a colon is a
  field with an empty value; a line starting with a colon is a comment;
- ``event``, ``id``, ``retry`` and unknown fields are ignored, and an event
  the stream ends in the middle of is dropped.

``keep_plain_lines`` serves providers that report an error inside an event
stream as a plain JSON document sent line by line (Gemini): lines that are
not data, comments or the standard fields are gathered and returned as one
payload after the events, and an unterminated last event is kept.
"""

from __future__ import annotations

# Field names a plain-lines stream still reads as event fields, not as lines of a document.
_FIELDS = (b"event", b"id", b"retry")


class EventStreamDecoder:
    def __init__(self, *, keep_plain_lines: bool = False) -> None:
        self._rest = b""
        self._data: list[str] = []
        self._plain: list[str] | None = [] if keep_plain_lines else None
        self._started = False

    def feed(self, chunk: bytes) -> list[str]:
        """The data of the events ``chunk`` completes, in order."""
        if (
            self._started and not self._rest and not self._data and chunk.startswith(b"data: ")
            and chunk.endswith(b"\n\n") and chunk.count(b"\n") == 2 and b"\r" not in chunk
        ):
            # The usual chunk of a streamed answer: exactly one event of one data line.
            return [data] if (data := chunk[6:-2].decode("utf-8", "replace")) else []
        if self._rest:
            chunk = self._rest + chunk
        if not self._started:
            if len(chunk) < 3 and b"\xef\xbb\xbf".startswith(chunk):
                self._rest = chunk  # perhaps the start of a byte order mark
                return []
            self._started = True
            chunk = chunk.removeprefix(b"\xef\xbb\xbf")
        if chunk.endswith(b"\r"):
            # Perhaps the first half of a CRLF: the line ends with the next chunk.
            self._rest = chunk
            return []
        if b"\r" in chunk:
            chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        lines = chunk.split(b"\n")
        self._rest = lines.pop()
        payloads: list[str] = []
        for line in lines:
            self._line(line, payloads)
        return payloads

    def finish(self) -> list[str]:
        """The rest once the stream ended: nothing, unless plain lines are kept (see the module)."""
        rest, self._rest = self._rest, b""
        payloads: list[str] = []
        if rest:
            lines = rest.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
            if not lines[-1]:
                lines.pop()  # the last line's end, not a blank line
            for line in lines:
                self._line(line, payloads)
        if self._plain is None:
            return payloads
        if data := "\n".join(self._data):
            payloads.append(data)
        self._data = []
        if self._plain:
            payloads.append("\n".join(self._plain))
        return payloads

    def _line(self, line: bytes, payloads: list[str]) -> None:
        if not line:
            if self._data:
                if data := "\n".join(self._data):
                    payloads.append(data)
                self._data = []
        elif line.startswith(b"data:"):
            value = line[6:] if line[5:6] == b" " else line[5:]
            self._data.append(value.decode("utf-8", "replace"))
        elif line == b"data":
            self._data.append("")
        elif line[0] != 0x3A and self._plain is not None and line.partition(b":")[0] not in _FIELDS:
            self._plain.append(line.decode("utf-8", "replace"))
