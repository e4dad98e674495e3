"""TensorFlow Lite's converter or our process? The tf.tflite mismatches on the hand-written Keras models of issue 20
(keras_conv and keras_attention: NaN where eager is finite; keras_embedding: -1.98e+14 where eager has -0.0025).

Needs only numpy, tensorflow (2.21.0 here, Keras 3) and ai-edge-litert (2.3.0 here). A one-layer Keras 3 model (an
Embedding) is traced with tf.function and converted by TFLiteConverter.from_concrete_functions with the model as
trackable_obj, as TensorFlow's guide does for a concrete function. The flatbuffer keeps the embedding table as a
resource variable (VAR_HANDLE, READ_VARIABLE) and has no initialiser for it (no CALL_ONCE subgraph): LiteRT's
interpreter and tf.lite.Interpreter both read uninitialised memory, different values from run to run. The same model
as a tf.Module with a tf.Variable is frozen into constants and converts right (printed as the control).

Run: python tflite_keras3_variables_uninitialised.py   (exit status 1 while the bug is present)
"""

import sys

import numpy as np
import tensorflow as tf
from ai_edge_litert.interpreter import Interpreter

tf.keras.utils.set_random_seed(0)


class KerasEmbedding(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.emb = tf.keras.layers.Embedding(10, 4)

    def call(self, tokens):
        return tf.reduce_mean(self.emb(tokens), 1)


class ModuleEmbedding(tf.Module):
    def __init__(self, table):
        super().__init__()
        self.table = tf.Variable(table)

    def __call__(self, tokens):
        return tf.reduce_mean(tf.gather(self.table, tokens), 1)


def convert_and_run(model, tokens):
    function = tf.function(model.__call__, input_signature=[tf.TensorSpec([None, 3], tf.int32, name="tokens")])
    converter = tf.lite.TFLiteConverter.from_concrete_functions([function.get_concrete_function()], model)
    converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS]
    interpreter = Interpreter(model_content=converter.convert(), num_threads=1)
    ops = sorted({op["op_name"] for op in interpreter._get_ops_details()})
    out = interpreter.get_signature_runner()(tokens=tokens)
    return next(iter(out.values())), ops


tokens = np.array([[1, 2, 3], [4, 5, 9]], dtype=np.int32)
keras_model = KerasEmbedding()
eager = keras_model(tokens).numpy()
control = ModuleEmbedding(keras_model.emb.embeddings.numpy())
bad = False
for name, model in (("Keras 3 model", keras_model), ("tf.Module (control)", control)):
    got, ops = convert_and_run(model, tokens)
    ok = np.allclose(got, eager, atol=1e-6)
    bad |= not ok
    print(f"{name}: ops {ops}\n  eager  {eager[0]}\n  tflite {got[0]}  -> {'right' if ok else 'WRONG'}")
print("BUG PRESENT: the Keras model's variables are read uninitialised" if bad else "fixed")
sys.exit(1 if bad else 0)
