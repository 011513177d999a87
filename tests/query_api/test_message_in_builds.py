"""A pasted error's message is written by the source file, not by the committed builds that
repeat it: the builds are left out of the files a message matches (builds_last.py), so they no
longer make it common prose. QA on axios/axios: `AxiosError: Request failed with status code
404` (lib/core/settle.js writes 'Request failed with status code ' + response.status, and so
do dist/axios.js, dist/esm/axios.js, dist/browser/axios.cjs, dist/node/axios.cjs and their
minified copies) ranked settle.js fifth, below lib/core/AxiosError.js and index.d.ts."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

SETTLE = (
    "import AxiosError from './AxiosError.js';\n\n"
    "export default function settle(resolve, reject, response) {\n"
    "  if (response.status < 400) {\n    resolve(response);\n  } else {\n"
    "    reject(new AxiosError(\n"
    "      'Request failed with status code ' + response.status,\n"
    "      AxiosError.ERR_BAD_REQUEST\n    ));\n  }\n}\n"
)
ERROR = (
    "export default function AxiosError(message, code, config, request, response) {\n"
    "  Error.call(this);\n  this.message = message;\n  this.name = 'AxiosError';\n"
    "  this.code = code;\n  this.status = response ? response.status : null;\n}\n\n"
    "AxiosError.ERR_BAD_REQUEST = 'ERR_BAD_REQUEST';\n"
)
BUNDLE = (
    "function AxiosError(message, code) {\n  this.message = message;\n}\n\n"
    "function settle(resolve, reject, response) {\n"
    "  reject(new AxiosError('Request failed with status code ' + response.status));\n}\n"
)


def _repo(root: Path) -> None:
    files = {
        "lib/core/settle.js": SETTLE,
        "lib/core/AxiosError.js": ERROR,
        "dist/axios.js": BUNDLE,
        "dist/esm/axios.js": BUNDLE,
        "dist/node/axios.cjs": BUNDLE,
    }
    for path, body in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(body)


async def test_the_source_writing_a_pasted_message_leads(tmp_path: Path) -> None:
    _repo(tmp_path / "ws" / "repo")
    async with indexed_app(tmp_path) as app:
        query = "AxiosError: Request failed with status code 404"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query, k=5))
        assert [h.entry.path for h in answer.hits][:1] == ["lib/core/settle.js"], answer.hits


HEADERS = (
    "class AxiosHeaders {\n  set(header, value) {\n    this[header] = value;\n"
    "    return this;\n  }\n}\n\nexport default AxiosHeaders;\n"
)
DISPATCH = (
    "import AxiosHeaders from './AxiosHeaders.js';\n\n"
    "export default function dispatchRequest(config) {\n"
    "  config.headers = new AxiosHeaders().set('Accept', config.accept);\n}\n"
)


@pytest.mark.parametrize(
    "query",
    [
        "AxiosHeaders.set drops false values",
        "TypeError: Cannot read properties of undefined (reading 'set')\n"
        "    at AxiosHeaders.set (node_modules/axios/lib/core/AxiosHeaders.js:3:5)\n"
        "    at dispatchRequest (node_modules/axios/lib/core/dispatchRequest.js:4:44)",
    ],
)
async def test_a_qualified_name_lifts_no_build_declaring_it_again(
    tmp_path: Path, query: str
) -> None:
    """QA on axios/axios: a trace through `AxiosHeaders.set` lifted dist/node/axios.cjs and
    dist/browser/axios.cjs, which declare the class again, to places 4-5 beside the frames'
    files, above lib/core/Axios.js."""
    root = tmp_path / "ws" / "repo"
    files = {
        "lib/core/AxiosHeaders.js": HEADERS,
        "lib/core/dispatchRequest.js": DISPATCH,
        "dist/axios.js": HEADERS.replace("export default AxiosHeaders;\n", "") + DISPATCH,
    }
    for path, body in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(body)
    async with indexed_app(tmp_path) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query, k=5))
        lifted = [h.entry.path for h in answer.hits if h.score == answer.hits[0].score]
        assert "dist/axios.js" not in lifted, answer.hits
