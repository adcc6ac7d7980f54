"""The NLI model kit (`contraflow nli`): data, clinical pairs, training, teacher labels,
evaluation, calibration and ONNX export. train and export need the [train] extra."""
