"""The ONNX format itself: what an ONNX graph cannot express by design (state, writes into inputs).
"""

from conformance.paths.known.factories import Failure, documented

RECORDS = (
    documented(
        "onnx.no_input_writes",
        reason=("An ONNX graph cannot write into its inputs: the exported model computes with the written values, "
                "the caller's tensors keep theirs"),
        phases=('compare',),
        where=r"^\['inputs'\]",
        constructs=('input_inplace',),
        paths=('torch.onnx_dynamo', 'torch.onnx_torchscript'),
        reference="https://onnx.ai/onnx/repo-docs/IR.html#graphs",
        details=("an ONNX graph cannot write into its inputs: the exported model computes with the written values, "
                 "the caller's tensors keep theirs. Provenance: https://onnx.ai/onnx/repo-docs/IR.html#graphs."),
        example=Failure('compare', divergences=(('value', "['inputs']"),), constructs=('input_inplace',)),
    ),
    documented(
        "onnx.no_state",
        reason=("An ONNX graph has no state: a buffer or variable is a constant of the export, and forward's "
                "updates to it are lost"),
        phases=('compare',),
        constructs=('state_counter', 'state_running', 'state_cache'),
        reference="https://onnx.ai/onnx/repo-docs/IR.html#graphs",
        details=("an ONNX graph has no state: a buffer or variable is a constant of the export, and the updates "
                 "forward makes to it are lost, so the later calls see the state of the export. Provenance: "
                 "https://onnx.ai/onnx/repo-docs/IR.html#graphs."),
        example=Failure('compare', divergences=(('value', '[0]'),), constructs=('state_counter',)),
    ),
)
