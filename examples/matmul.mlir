// The demo kernel: a 64x64 matmul on tensors. The demo pipeline bufferizes
// it, turns it into parallel loops, tiles them 16x16, maps the tiles onto a
// gpu.launch, outlines the kernel and lowers it to NVVM; the codegen step
// runs the NVPTX back end.
func.func @matmul(%A: tensor<64x64xf32>, %B: tensor<64x64xf32>, %C: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul ins(%A, %B : tensor<64x64xf32>, tensor<64x64xf32>)
                     outs(%C : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
