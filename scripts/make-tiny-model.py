#!/usr/bin/python3
"""Builds the tiny test embedding model in test/fixtures/tiny-model/.

It has the same inputs and outputs as Xenova/all-MiniLM-L6-v2's onnx/model.onnx, so the real
transformers.js loading and inference code runs in tests without the 90 MB model:
  inputs  input_ids, attention_mask, token_type_ids  int64 [batch, seq]
  output  last_hidden_state                          float32 [batch, seq, 384]

The graph is a bag of words: each token id picks a row of a small seeded table [vocab, RANK],
projected to 384 dims by a seeded [RANK, 384] matrix (low rank keeps the file small), plus a
token-type row, times the attention mask. Mean pooling then gives texts that share words
similar vectors and unrelated texts distant ones. Deterministic: same script, same bytes.

Run with Debian's Python, which has onnx and numpy:  /usr/bin/python3 scripts/make-tiny-model.py [out_dir]
"""

import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

SEED = 20240601
HIDDEN = 384
RANK = 48
OPSET = 13
IR_VERSION = 8
MODEL_ID = "org-brain/tiny-test-model"

SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]

# Common English words plus the vocabulary of a team's documents (pricing, deploys, owners...).
WORDS = """
the of and to a in is it you that he was for on are with as i his they be at one have this from
or had by hot word but what some we can out other were all there when up use your how said an
each she which do their time if will way about many then them write would like so these her long
make thing see him two has look more day could go come did number sound no most people my over
know water than call first who may down side been now find any new work part take get place made
live where after back little only round man year came show every good me give our under name
very through just form sentence great think say help low line differ turn cause much mean before
move right boy old too same tell does set three want air well also play small end put home read
hand port large spell add even land here must big high such follow act why ask men change went
light kind off need house picture try us again animal point mother world near build self earth
father head stand own page should country found answer school grow study still learn plant cover
food sun four between state keep eye never last let thought city tree cross farm hard start might
story saw far sea draw left late run while press close night real life few north open seem
together next white children begin got walk example ease paper group always music those both mark
often letter until mile river car feet care second book carry took science eat room friend began
idea fish mountain stop once base hear horse cut sure watch color face wood main enough plain girl
usual young ready above ever red list though feel talk bird soon body dog family direct pose leave
song measure door product black short numeral class wind question happen complete ship area half
rock order fire south problem piece told knew pass since top whole king space heard best hour
better true during hundred five remember step early hold west ground interest reach fast verb sing
listen six table travel less morning ten simple several vowel toward war lay against pattern slow
center love person money serve appear road map rain rule govern pull cold notice voice unit power
town fine certain fly fall lead cry dark machine note wait plan figure star box noun field rest
correct able pound done beauty drive stood contain front teach week final gave green oh quick
develop ocean warm free minute strong special mind behind clear tail produce fact street inch
multiply nothing course stay wheel full force blue object decide surface deep moon island foot
system busy test record boat common gold possible plane stead dry wonder laugh thousand ago ran
check game shape equate miss brought heat snow tire bring yes distant fill east paint language
among grand ball yet wave drop heart am present heavy dance engine position arm wide sail material
size vary settle speak weight general ice matter circle pair include divide syllable felt perhaps
pick sudden count square reason length represent art subject region energy hunt probable bed
brother egg ride cell believe fraction forest sit race window store summer train sleep prove lone
exercise wall catch mount wish sky board joy winter sat written wild instrument kept glass grass
cow job edge sign visit past soft fun bright gas weather month million bear finish happy hope
flower clothe strange gone jump baby eight village meet root buy raise solve metal whether push
seven paragraph third shall held hair describe cook floor either result burn hill safe cat century
consider type law bit coast copy phrase silent tall sand soil roll temperature finger industry
value fight lie beat excite natural view sense ear else quite broke case middle kill son lake
moment scale loud spring observe child straight consonant nation dictionary milk speed method organ
pay age section dress cloud surprise quiet stone tiny climb cool design poor lot experiment bottom
key iron single stick flat twenty skin smile crease hole trade melody trip office receive row
mouth exact symbol die least trouble shout except wrote seed tone join suggest clean break lady
yard rise bad blow oil blood touch grew cent mix team wire cost lost brown wear garden equal sent
choose fell fit flow fair bank collect save control decimal gentle woman captain practice separate
difficult doctor please protect noon whose locate ring character insect caught period indicate
radio spoke atom human history effect electric expect crop modern element hit student corner party
supply bone rail imagine provide agree thus capital chair danger fruit rich thick soldier process
operate guess necessary sharp wing create neighbor wash bat rather crowd corn compare poem string
bell depend meat rub tube famous dollar stream fear sight thin triangle planet hurry chief colony
clock mine tie enter major fresh search send yellow gun allow print dead spot desert suit current
lift rose continue block chart hat sell success company subtract event particular deal swim term
opposite wife shoe shoulder spread arrange camp invent cotton born determine quart nine truck noise
level chance gather shop stretch throw shine property column molecule select wrong gray repeat
require broad prepare salt nose plural anger claim continent oxygen sugar death pretty skill women
season solution magnet silver thank branch match suffix especially fig afraid huge sister steel
discuss forward similar guide experience score apple bought led pitch coat mass card band rope slip
win dream evening condition feed tool total basic smell valley nor double seat arrive master track
parent shore division sheet substance favor connect post spend chord fat glad original share station
dad bread charge proper bar offer segment slave duck instant market degree populate chick dear enemy
reply drink occur support speech nature range steam motion path liquid log meant quotient teeth
shell neck
pricing price prices customer customers contract contracts invoice invoices discount plan plans
policy policies decision decisions owner owners project projects deploy deploys deployment release
releases database databases server servers client clients query queries search index indexing
embedding embeddings vector vectors model models agent agents memory note notes file files document
documents section sections meeting meetings budget revenue quarter quarterly roadmap launch
feature features bug bugs issue issues ticket tickets incident incidents outage security password
access scope team teams manager engineer engineering design sales marketing support legal finance
hiring onboarding review reviews approve approved approval migration migrations schema table tables
backup restore sync latency cache cluster kubernetes docker api apis endpoint endpoints token
tokens user users account accounts email phone address office remote vacation holiday salary
benefits insurance travel expense expenses report reports dashboard metric metrics goal goals
deadline priority risk risks vendor vendors license licenses renewal invoice payment payments
refund refunds subscription subscriptions tier tiers enterprise startup monthly annual yearly
weekly daily today tomorrow yesterday january february march april june july august september
october november december monday tuesday wednesday thursday friday saturday sunday
coffee tea lunch dinner breakfast pizza cake weather rainy sunny snowy football soccer tennis
guitar piano movie movies cats dogs kitten puppy garden gardening recipe recipes
""".split()

PIECES = ["##s", "##es", "##ed", "##ing", "##er", "##ers", "##ly", "##tion", "##al", "##y", "##'s"]
CHARS = list("abcdefghijklmnopqrstuvwxyz0123456789")
PUNCT = list(".,;:!?'\"()[]{}-_/\\@#$%&*+=<>|~`^")


def build_vocab():
    """Special tokens first (ids 0-4 like BERT's order), then words, pieces, characters."""
    vocab = {}
    for tok in SPECIAL + WORDS + PIECES + CHARS + ["##" + c for c in CHARS] + PUNCT:
        if tok not in vocab:
            vocab[tok] = len(vocab)
    return vocab


def build_graph(vocab_size, rng):
    table = rng.standard_normal((vocab_size, RANK)).astype(np.float32)
    # Special tokens sit in every text; a small row keeps them from dominating the mean.
    table[: len(SPECIAL)] *= 0.05
    proj = (rng.standard_normal((RANK, HIDDEN)) / np.sqrt(RANK)).astype(np.float32)
    type_rows = (rng.standard_normal((2, HIDDEN)) * 0.01).astype(np.float32)

    nodes = [
        helper.make_node("Gather", ["word_table", "input_ids"], ["word_low"], axis=0),
        helper.make_node("MatMul", ["word_low", "word_proj"], ["word_vec"]),
        helper.make_node("Gather", ["type_table", "token_type_ids"], ["type_vec"], axis=0),
        helper.make_node("Add", ["word_vec", "type_vec"], ["summed"]),
        helper.make_node("Cast", ["attention_mask"], ["mask_f"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["mask_f", "unsqueeze_axes"], ["mask_3d"]),
        helper.make_node("Mul", ["summed", "mask_3d"], ["last_hidden_state"]),
    ]
    dims = ["batch_size", "sequence_length"]
    inputs = [
        helper.make_tensor_value_info(name, TensorProto.INT64, dims)
        for name in ("input_ids", "attention_mask", "token_type_ids")
    ]
    output = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, dims + [HIDDEN])
    initializers = [
        numpy_helper.from_array(table, "word_table"),
        numpy_helper.from_array(proj, "word_proj"),
        numpy_helper.from_array(type_rows, "type_table"),
        numpy_helper.from_array(np.array([-1], dtype=np.int64), "unsqueeze_axes"),
    ]
    graph = helper.make_graph(nodes, "tiny_bag_of_words", inputs, [output], initializers)
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", OPSET)],
        producer_name="org-brain-make-tiny-model",
        ir_version=IR_VERSION,
    )
    onnx.checker.check_model(model, full_check=True)
    return model


def special_entry(tok, vocab):
    return {"id": tok, "ids": [vocab[tok]], "tokens": [tok]}


def tokenizer_json(vocab):
    added = [
        {"id": vocab[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
         "normalized": False, "special": True}
        for t in SPECIAL
    ]
    cls = {"SpecialToken": {"id": "[CLS]", "type_id": 0}}
    sep0 = {"SpecialToken": {"id": "[SEP]", "type_id": 0}}
    sep1 = {"SpecialToken": {"id": "[SEP]", "type_id": 1}}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                       "strip_accents": None, "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [cls, {"Sequence": {"id": "A", "type_id": 0}}, sep0],
            "pair": [cls, {"Sequence": {"id": "A", "type_id": 0}}, sep0,
                     {"Sequence": {"id": "B", "type_id": 1}}, sep1],
            "special_tokens": {t: special_entry(t, vocab) for t in ("[CLS]", "[SEP]")},
        },
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": vocab},
    }


def tokenizer_config():
    return {
        "tokenizer_class": "BertTokenizer",
        "do_lower_case": True,
        "do_basic_tokenize": True,
        "never_split": None,
        "model_max_length": 512,
        "clean_up_tokenization_spaces": True,
        "strip_accents": None,
        "tokenize_chinese_chars": True,
        "unk_token": "[UNK]",
        "sep_token": "[SEP]",
        "pad_token": "[PAD]",
        "cls_token": "[CLS]",
        "mask_token": "[MASK]",
    }


def model_config(vocab_size):
    return {
        "_name_or_path": MODEL_ID,
        "architectures": ["BertModel"],
        "model_type": "bert",
        "hidden_size": HIDDEN,
        "num_hidden_layers": 1,
        "num_attention_heads": 12,
        "intermediate_size": 1536,
        "hidden_act": "gelu",
        "max_position_embeddings": 512,
        "type_vocab_size": 2,
        "vocab_size": vocab_size,
        "pad_token_id": 0,
        "layer_norm_eps": 1e-12,
    }


def write_json(path, value):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(value, f, indent=2, ensure_ascii=False)
        f.write("\n")


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(repo, "test", "fixtures", "tiny-model")
    os.makedirs(os.path.join(out, "onnx"), exist_ok=True)
    rng = np.random.default_rng(SEED)
    vocab = build_vocab()
    model = build_graph(len(vocab), rng)
    with open(os.path.join(out, "onnx", "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    write_json(os.path.join(out, "tokenizer.json"), tokenizer_json(vocab))
    write_json(os.path.join(out, "tokenizer_config.json"), tokenizer_config())
    write_json(os.path.join(out, "config.json"), model_config(len(vocab)))
    write_json(os.path.join(out, "brain-model.json"), {"id": MODEL_ID, "dim": HIDDEN})
    total = sum(os.path.getsize(os.path.join(d, n)) for d, _, ns in os.walk(out) for n in ns)
    print(f"wrote {out}: vocab {len(vocab)}, {total} bytes")


if __name__ == "__main__":
    main()
