"""Our process or ExecuTorch? torch.executorch runtime error "method->set_inputs() for method 'forward' failed with
error 0x10" on the batch inputs of the hand-written model recurrent (tests/user_models/torch_models.py: an nn.GRU;
the torch user-model table of 2026-11-28, issue 20), where torch.export passes on them.

Needs only torch (2.13.0 here) and executorch. torch.export of an nn.GRU with a dynamic batch (Dim B in [1, 96])
keeps the batch symbolic; executorch.exir.to_edge turns it into the example's batch (the edge program's input is
[3, 5, 4], its range constraint 3..3), silently, so the ExecuTorch program is planned for the example's size: a larger
batch is refused when set as input (error 0x10, 'Attempted to resize a bounded tensor with a maximum capacity of 60
elements to 80 elements'), a smaller one fails in execute (error 0x12). nn.LSTM and nn.RNN keep the batch dynamic.

Run: python torch_executorch_gru_static_batch.py   (exit status 1 while the bug is present)
"""

import sys
import warnings

import torch


class Recurrent(torch.nn.Module):
    def __init__(self, kind: str):
        super().__init__()
        torch.manual_seed(0)
        self.rnn = getattr(torch.nn, kind)(4, 6, batch_first=True)

    def forward(self, x):
        return self.rnn(x)[0][:, -1]


def batch_of_edge_input(kind: str):
    from executorch.exir import to_edge

    batch = torch.export.Dim("B", min=1, max=96)
    program = torch.export.export(Recurrent(kind), (torch.randn(3, 5, 4),), dynamic_shapes={"x": {0: batch}})
    exported = str(input_batch(program))  # now: to_edge specialises the SymInt itself
    edge = to_edge(program)
    return exported, input_batch(edge.exported_program()), edge


def input_batch(program):
    """The batch dim of the program's user input x (a SymInt where it is dynamic)."""
    name = program.graph_signature.user_inputs[0]
    return next(n for n in program.graph.nodes if n.name == name).meta["val"].shape[0]


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    from executorch.runtime import Runtime

    lost = False
    for kind in ("GRU", "LSTM", "RNN"):
        exported, lowered, edge = batch_of_edge_input(kind)
        method = Runtime.get().load_program(edge.to_executorch().buffer).load_method("forward")
        runs = []
        for b in (3, 4, 2):
            try:
                method.execute([torch.randn(b, 5, 4)])
                runs.append(f"batch {b}: runs")
            except RuntimeError as e:
                runs.append(f"batch {b}: {e}")
        lost |= kind == "GRU" and str(lowered).isdigit() and not exported.isdigit()
        print(f"nn.{kind}: batch after torch.export {exported}, after to_edge {lowered}; " + "; ".join(runs))
    print("verdict:", "ExecuTorch: to_edge specialises an nn.GRU program's dynamic batch to the example's" if lost
          else "not reproduced")
    sys.exit(1 if lost else 0)
