<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>kvscope</name>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活</translation>
    </message>
    <message>
        <source>Runtime overhead</source>
        <translation>运行时开销</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV Cache</translation>
    </message>
    <message>
        <source>Headroom</source>
        <translation>余量</translation>
    </message>
    <message>
        <source>Over budget</source>
        <translation>超出预算</translation>
    </message>
    <message>
        <source>Recurrent state</source>
        <translation>循环状态</translation>
    </message>
    <message>
        <source>CUDA graphs</source>
        <translation>CUDA 图</translation>
    </message>
    <message>
        <source>an image of %1 x %2 pixels: Qwen-VL&apos;s processor refuses an aspect ratio above 200</source>
        <translation>%1 x %2 像素的图像：Qwen-VL 的处理器拒绝宽高比超过 200 的图像</translation>
    </message>
    <message>
        <source>%1 takes no images: its config.json has no vision tower</source>
        <translation>%1 不接受图像：其 config.json 中没有视觉编码器</translation>
    </message>
    <message>
        <source>the tokens an image takes on %1 are not modelled yet (its processor: %2)</source>
        <translation>尚未建模 %1 上一张图像占用的 token 数（其处理器：%2）</translation>
    </message>
    <message>
        <source>not one kvscope lists</source>
        <translation>kvscope 未收录的处理器</translation>
    </message>
    <message>
        <source>an image of %1 x %2 pixels: each side must be 1 to %3</source>
        <translation>%1 x %2 像素的图像：每边须为 1 到 %3</translation>
    </message>
</context>
<context>
    <name>kvscope::Accuracy</name>
    <message>
        <source>Student-t (5 degrees of freedom)</source>
        <translation> Student-t 分布（自由度 5）</translation>
    </message>
    <message>
        <source>Gaussian</source>
        <translation>高斯分布</translation>
    </message>
    <message>
        <source>synthetic %1, std %2</source>
        <translation>合成的%1，标准差 %2</translation>
    </message>
    <message>
        <source>, 4 %1 channels %2x, %3x, %4x, %5x larger</source>
        <translation>，4 个%1通道放大 %2x、%3x、%4x、%5x</translation>
    </message>
    <message>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>, seed %1, stored as %2</source>
        <translation>，种子 %1，以 %2 存储</translation>
    </message>
    <message>
        <source>%1: simulated on a synthetic tensor instead</source>
        <translation>%1：改用合成张量模拟</translation>
    </message>
    <message>
        <source>%1 in %2 is %3 %4 (%5): simulated on a synthetic tensor instead</source>
        <translation>%2 中的 %1 是 %3 %4（%5）：改用合成张量模拟</translation>
    </message>
    <message>
        <source>no tensor named *%1 in %2: simulated on a synthetic tensor instead</source>
        <translation>%2 中没有名为 *%1 的张量：改用合成张量模拟</translation>
    </message>
    <message>
        <source>%1-bit groups are not modelled by the simulator (2 to 4 bits)</source>
        <translation>模拟器不支持 %1 位分组（仅 2 到 4 位）</translation>
    </message>
    <message>
        <source>the checkpoint&apos;s %1 FP8 scales are simulated as one per-tensor scale (an upper bound on the error)</source>
        <translation>检查点的%1 FP8 缩放按单个逐张量缩放模拟（误差的上界）</translation>
    </message>
    <message>
        <source>%1 x %2 block</source>
        <translation> %1 x %2 分块</translation>
    </message>
    <message>
        <source>per-channel</source>
        <translation>逐通道</translation>
    </message>
    <message>
        <source>NF4 simulated with fp32 absmax per 64 (double quantization of the absmax not simulated)</source>
        <translation>NF4 按每 64 个值一个 fp32 absmax 模拟（未模拟 absmax 的二次量化）</translation>
    </message>
    <message>
        <source>the checkpoint&apos;s per-channel FP8 scales are simulated as one per-tensor scale (an upper bound on the error)</source>
        <translation>检查点的逐通道 FP8 缩放按单个逐张量缩放模拟（误差的上界）</translation>
    </message>
    <message>
        <source>compressed-tensors scheme %1 is not modelled by the simulator</source>
        <translation>模拟器不支持 compressed-tensors 方案 %1</translation>
    </message>
    <message>
        <source>GGUF blocks</source>
        <translation>GGUF 分块</translation>
    </message>
    <message>
        <source>the file&apos;s weights are stored unquantized</source>
        <translation>该文件的权重以未量化形式存储</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s %1 blocks are not modelled by the simulator; see the published results</source>
        <translation>模拟器不支持 llama.cpp 的 %1 分块；请参考已发表结果</translation>
    </message>
    <message>
        <source>%1 of a %2 checkpoint</source>
        <translation>%2 检查点的 %1</translation>
    </message>
    <message>
        <source>the checkpoint stores its weights quantized; the error is estimated against unquantized weights</source>
        <translation>检查点存储的是量化后的权重；误差相对于未量化权重估计</translation>
    </message>
    <message>
        <source>%1 of %2 (%3)</source>
        <translation>%2 中的 %1（%3）</translation>
    </message>
    <message>
        <source>fp8_ds_mla keeps a float32 scale per 128 latent values; simulated with one per-tensor scale</source>
        <translation>fp8_ds_mla 每 128 个潜向量值保留一个 float32 缩放；按单个逐张量缩放模拟</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s %1 KV blocks are not modelled by the simulator; see the published results</source>
        <translation>模拟器不支持 llama.cpp 的 %1 KV 分块；请参考已发表结果</translation>
    </message>
    <message>
        <source>the MLA latent (c_KV, %1 values, and the RoPE key, %2) of one layer over %3 tokens</source>
        <translation>一层在 %3 个 token 上的 MLA 潜向量（c_KV，%1 个值，以及 RoPE 键，%2 个）</translation>
    </message>
    <message>
        <source>the keys of one KV head of one layer over %1 tokens</source>
        <translation>一层中一个 KV 头在 %1 个 token 上的键</translation>
    </message>
    <message>
        <source>the values of one KV head of one layer over %1 tokens</source>
        <translation>一层中一个 KV 头在 %1 个 token 上的值</translation>
    </message>
    <message>
        <source>the view&apos;s synthetic tensors have no outlier channels and are not rounded to the checkpoint&apos;s dtype: its SQNR can differ from the Compare view&apos;s, which adds both</source>
        <translation>此视图的合成张量没有离群通道，也不舍入到检查点的数据类型：其 SQNR 可能与对比视图不同（对比视图两者都有）</translation>
    </message>
    <message>
        <source>per-tensor 1.0: %1&apos;s k/v scale without calibrated scales (%2); a checkpoint with calibrated k/v scales runs near the calibrated figure (kvscope does not read them)</source>
        <translation>逐张量 1.0：没有校准缩放时 %1 使用的 k/v 缩放（%2）；带校准 k/v 缩放的检查点接近校准后的数值（kvscope 不读取这些缩放）</translation>
    </message>
    <message>
        <source>simulated with %1, fitted on %2 rows of %3; the output SQNR is on %4 held-out rows</source>
        <translation>以%1模拟，在 %3 的 %2 行上拟合；输出 SQNR 在 %4 个留出行上计算</translation>
    </message>
    <message>
        <source>AWQ&apos;s activation-aware scale search (Lin et al. 2023)</source>
        <translation>AWQ 的激活感知缩放搜索（Lin 等，2023）</translation>
    </message>
    <message>
        <source>GPTQ&apos;s error-compensating rounding (Frantar et al. 2022)</source>
        <translation>GPTQ 的误差补偿舍入（Frantar 等，2022）</translation>
    </message>
    <message>
        <source>synthetic activations with %1 % outlier channels %2x to %3x larger</source>
        <translation>含 %1 % 离群通道（放大 %2x 到 %3x）的合成激活</translation>
    </message>
    <message>
        <source>[%1, %2] simulated as a [%3, %4] sample of its distribution</source>
        <translation>[%1, %2] 按其分布的 [%3, %4] 样本模拟</translation>
    </message>
    <message>
        <source>the layer output&apos;s error includes the activations&apos; own FP8 rounding, %1 as vLLM&apos;s W8A8 kernel quantizes them (fp8.py)</source>
        <translation>层输出的误差包含激活自身的 FP8 舍入：按 vLLM 的 W8A8 内核的量化方式，%1（fp8.py）</translation>
    </message>
    <message>
        <source>the layer output&apos;s error includes the activations&apos; own MXFP8 rounding, one power-of-two scale per 32 values, as FlashInfer&apos;s mxfp8_quantize quantizes the experts&apos; inputs for the MXFP4 x MXFP8 MoE kernel</source>
        <translation>层输出的误差包含激活自身的 MXFP8 舍入：每 32 个值共用一个 2 的幂缩放，即 FlashInfer 的 mxfp8_quantize 为 MXFP4 x MXFP8 MoE 内核量化专家输入的方式</translation>
    </message>
    <message>
        <source>one dynamic scale per token</source>
        <translation>每个 token 一个动态缩放</translation>
    </message>
    <message>
        <source>one dynamic scale per 128 values of a token</source>
        <translation>每个 token 每 128 个值一个动态缩放</translation>
    </message>
    <message>
        <source>the layer output&apos;s error includes the activations&apos; own INT8 rounding, one dynamic symmetric scale per token as compressed-tensors&apos; W8A8 scheme quantizes them; INT8 checkpoints are usually made with SmoothQuant, which first moves the activations&apos; outliers into the weights (not simulated: this is round-to-nearest)</source>
        <translation>层输出的误差包含激活自身的 INT8 舍入：按 compressed-tensors 的 W8A8 方案，每个 token 一个动态对称缩放；INT8 检查点通常用 SmoothQuant 制作，它先把激活的离群值迁移到权重中（未模拟：这里是就近舍入）</translation>
    </message>
    <message>
        <source>NVFP4&apos;s 4-bit activations are not simulated: the layer output&apos;s error is the weights&apos; alone</source>
        <translation>未模拟 NVFP4 的 4 位激活：层输出的误差只来自权重</translation>
    </message>
    <message>
        <source>the layer output&apos;s SQNR is on %1 rows of %2</source>
        <translation>层输出的 SQNR 在 %2 的 %1 行上计算</translation>
    </message>
    <message>
        <source>a power-of-two scale per 16 values from the block&apos;s own maximum (SGLang&apos;s FP4MXBlock16KVQuantizeUtil); no per-tensor scale, so none to calibrate</source>
        <translation>每 16 个值一个 2 的幂缩放，取自该块自身的最大值（SGLang 的 FP4MXBlock16KVQuantizeUtil）；没有逐张量缩放，因此无需校准</translation>
    </message>
</context>
<context>
    <name>kvscope::AttentionPanel</name>
    <message>
        <source>KV cache:</source>
        <translation>KV Cache：</translation>
    </message>
    <message>
        <source>Scale:</source>
        <translation>缩放：</translation>
    </message>
    <message>
        <source>Query:</source>
        <translation>查询：</translation>
    </message>
    <message>
        <source>Cached tokens:</source>
        <translation>缓存 token 数：</translation>
    </message>
    <message>
        <source>Query number:</source>
        <translation>查询编号：</translation>
    </message>
    <message>
        <source>engine&apos;s 1.0 (no calibration)</source>
        <translation>引擎默认 1.0，未校准</translation>
    </message>
    <message>
        <source>calibrated (amax / max)</source>
        <translation>校准：amax / max</translation>
    </message>
    <message>
        <source>on the keys&apos; outlier channels</source>
        <translation>集中在键的离群通道上</translation>
    </message>
    <message>
        <source>diffuse</source>
        <translation>分散</translation>
    </message>
    <message>
        <source>Which of the %1 decode queries Compare averages over</source>
        <translation>对比视图所平均的 %1 个解码查询中的哪一个</translation>
    </message>
    <message>
        <source>%1: one KV head (keys of %2 values with four outlier channels 2.5–10× the rest, as Compare simulates them); query %3 of the %4 Compare averages over.</source>
        <translation>%1：一个 KV 头（每个键 %2 个值，其中四个离群通道是其余的 2.5–10 倍，与对比视图的模拟相同）；对比视图所平均的 %4 个查询中的第 %3 个。</translation>
    </message>
</context>
<context>
    <name>kvscope::AttentionPicture</name>
    <message>
        <source>output SQNR %1 dB</source>
        <translation>输出 SQNR %1 dB</translation>
    </message>
    <message>
        <source>output exact</source>
        <translation>输出无误差</translation>
    </message>
    <message>
        <source>Over %1 tokens: %2 · %3 % of the attention moves to other tokens · logit error %4 RMS against a logit spread of %5 · stored with scale %6</source>
        <translation>在 %1 个 token 上：%2 · %3 % 的注意力转移到其他 token · logit 误差 RMS %4，logit 分布标准差 %5 · 存储缩放 %6</translation>
    </message>
</context>
<context>
    <name>kvscope::AttentionWeightsChart</name>
    <message>
        <source>Attention of one decode query over the cached tokens</source>
        <translation>一个解码查询对缓存 token 的注意力</translation>
    </message>
    <message>
        <source>cached token</source>
        <translation>缓存的 token</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>16-bit cache</source>
        <translation>16 位缓存</translation>
    </message>
    <message>
        <source>%1 cache, calibrated scale</source>
        <translation>%1 缓存，校准缩放</translation>
    </message>
    <message>
        <source>%1 cache, scale 1.0</source>
        <translation>%1 缓存，缩放 1.0</translation>
    </message>
</context>
<context>
    <name>kvscope::BenchResultText</name>
    <message>
        <source>%1: model_id &apos;%2&apos; is not the scenario&apos;s model (%3); the calibration uses its figures anyway</source>
        <translation>%1：model_id “%2”不是当前场景的模型（%3）；校准仍使用其数据</translation>
    </message>
</context>
<context>
    <name>kvscope::BreakdownChartView</name>
    <message>
        <source>Budget %1</source>
        <translation>预算 %1</translation>
    </message>
    <message>
        <source>GPU memory %1</source>
        <translation>GPU 显存 %1</translation>
    </message>
    <message>
        <source>Memory per GPU (each of %1), GiB = 2^30 bytes</source>
        <translation>每块 GPU 的显存（共 %1 块），GiB = 2^30 字节</translation>
    </message>
    <message>
        <source>Memory per GPU, GiB = 2^30 bytes</source>
        <translation>每块 GPU 的显存，GiB = 2^30 字节</translation>
    </message>
</context>
<context>
    <name>kvscope::CalibrationText</name>
    <message>
        <source>an inter-token latency must be a positive number of milliseconds, got %1</source>
        <translation>token 间延迟必须是正的毫秒数，实际为 %1</translation>
    </message>
    <message>
        <source>the concurrency must be at least 1, got %1</source>
        <translation>并发数至少为 1，实际为 %1</translation>
    </message>
    <message>
        <source>the context must be at least 1 token, got %1</source>
        <translation>上下文至少为 1 个 token，实际为 %1</translation>
    </message>
    <message>
        <source>%1 lists no memory bandwidth, so no measurement can calibrate its speed; give the GPU&apos;s bandwidth</source>
        <translation>%1 未列出显存带宽，任何实测都无法校准其速度；请给出该 GPU 的带宽</translation>
    </message>
    <message>
        <source>%1 %2 is given and overrides any calibration; leave it out to calibrate</source>
        <translation>已给出 %1 %2，它会覆盖任何校准；去掉它才能校准</translation>
    </message>
    <message>
        <source>%1 ms at concurrency %2</source>
        <translation>并发 %2 时 %1 ms</translation>
    </message>
    <message>
        <source>%1 is faster than %2&apos;s %3 GB/s allows for this model (%4 ms at 100 % of the bandwidth); check the GPU, precision and concurrency</source>
        <translation>%1 比 %2 的 %3 GB/s 对该模型所允许的还快（带宽利用 100 % 时为 %4 ms）；请检查 GPU、精度和并发</translation>
    </message>
    <message>
        <source>%1 is slower than this model explains on %2 (%3 ms at %4 % of its %5 GB/s); check the GPU, precision, concurrency and context</source>
        <translation>%1 比该模型在 %2 上所能解释的还慢（利用其 %5 GB/s 的 %4 % 时为 %3 ms）；请检查 GPU、精度、并发和上下文</translation>
    </message>
</context>
<context>
    <name>kvscope::ChartCatalogue</name>
    <message>
        <source>Memory per GPU (bar)</source>
        <translation>每块 GPU 的显存（条形图）</translation>
    </message>
    <message>
        <source>Memory growth</source>
        <translation>显存增长</translation>
    </message>
    <message>
        <source>Quantization error histogram</source>
        <translation>量化误差直方图</translation>
    </message>
    <message>
        <source>Values and quantization grid</source>
        <translation>数值与量化网格</translation>
    </message>
    <message>
        <source>SQNR by scheme</source>
        <translation>各方案的 SQNR</translation>
    </message>
    <message>
        <source>Report: summary, figures and charts</source>
        <translation>报告：摘要、数据与图表</translation>
    </message>
    <message>
        <source>Decode tokens/s vs batch size</source>
        <translation>解码 tokens/s 与 Batch 大小</translation>
    </message>
    <message>
        <source>Comparison: memory per GPU by column</source>
        <translation>对比：各列每块 GPU 的显存</translation>
    </message>
    <message>
        <source>Comparison: capacity and speed by column</source>
        <translation>对比：各列的容量与速度</translation>
    </message>
    <message>
        <source>Where the time of a step goes</source>
        <translation>一步的时间花在哪里</translation>
    </message>
    <message>
        <source>Comparison: accuracy by column</source>
        <translation>对比：各列的精度</translation>
    </message>
    <message>
        <source>Attention of one query: 16-bit and FP8 KV cache</source>
        <translation>单个查询的注意力：16 位与 FP8 KV Cache</translation>
    </message>
    <message>
        <source>Logit error of each key under an FP8 KV cache</source>
        <translation>FP8 KV Cache 下每个键的 logit 误差</translation>
    </message>
</context>
<context>
    <name>kvscope::ChartExportActions</name>
    <message>
        <source>Save image…</source>
        <translation>保存图片…</translation>
    </message>
    <message>
        <source>Save the chart as PNG, SVG or PDF, at any size and scale, with a caption line.</source>
        <translation>将图表保存为 PNG、SVG 或 PDF，可选任意尺寸与缩放，并附说明行。</translation>
    </message>
    <message>
        <source>Copy image</source>
        <translation>复制图片</translation>
    </message>
    <message>
        <source>Copy data</source>
        <translation>复制数据</translation>
    </message>
    <message>
        <source>Copy the chart&apos;s figures as CSV.</source>
        <translation>以 CSV 复制图表的数据。</translation>
    </message>
    <message>
        <source>Export this chart: save or copy it as an image, copy its data</source>
        <translation>导出此图表：保存或复制为图片，复制其数据</translation>
    </message>
    <message>
        <source>Cannot save the image</source>
        <translation>无法保存图片</translation>
    </message>
    <message>
        <source>Cannot copy the image</source>
        <translation>无法复制图片</translation>
    </message>
    <message>
        <source>Cannot copy the data</source>
        <translation>无法复制数据</translation>
    </message>
</context>
<context>
    <name>kvscope::CompareBarsChartView</name>
    <message>
        <source>Accuracy by column</source>
        <translation>各列的精度</translation>
    </message>
    <message>
        <source>Capacity and speed by column</source>
        <translation>各列的容量与速度</translation>
    </message>
    <message>
        <source>SQNR in dB (simulated; higher is better)</source>
        <translation>SQNR（dB，模拟值；越高越好）</translation>
    </message>
    <message>
        <source>share of the largest in each group</source>
        <translation>占每组最大值的比例</translation>
    </message>
</context>
<context>
    <name>kvscope::CompareMemoryChartView</name>
    <message>
        <source>Budget %1</source>
        <translation>预算 %1</translation>
    </message>
    <message>
        <source>Memory per GPU by column, GiB = 2^30 bytes</source>
        <translation>各列每块 GPU 的显存，GiB = 2^30 字节</translation>
    </message>
    <message>
        <source>Memory per GPU by pipeline stage, GiB = 2^30 bytes</source>
        <translation>每块 GPU 的显存（按流水线级），GiB = 2^30 字节</translation>
    </message>
</context>
<context>
    <name>kvscope::CompareText</name>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <source>%1 sequences</source>
        <translation>%1 条序列</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 tokens/s</translation>
    </message>
    <message>
        <source>%1 dB</source>
        <translation>%1 dB</translation>
    </message>
    <message>
        <source>weights per GPU</source>
        <translation>每块 GPU 的权重</translation>
    </message>
    <message>
        <source>KV bytes per token</source>
        <translation>每个 token 的 KV 字节数</translation>
    </message>
    <message>
        <source>KV cache for the batch</source>
        <translation>整个 Batch 的 KV Cache</translation>
    </message>
    <message>
        <source>headroom</source>
        <translation>余量</translation>
    </message>
    <message>
        <source>maximum concurrency</source>
        <translation>最大并发</translation>
    </message>
    <message>
        <source>largest batch that fits</source>
        <translation>放得下的最大 Batch</translation>
    </message>
    <message>
        <source>decode tokens/s</source>
        <translation>解码 tokens/s</translation>
    </message>
    <message>
        <source>time to first token</source>
        <translation>首 token 时延</translation>
    </message>
    <message>
        <source>decode bound</source>
        <translation>解码瓶颈</translation>
    </message>
    <message>
        <source>weight SQNR</source>
        <translation>权重 SQNR</translation>
    </message>
    <message>
        <source>KV SQNR</source>
        <translation>KV SQNR</translation>
    </message>
    <message>
        <source>The weights as stored, per GPU.</source>
        <translation>按存储格式计的权重，每块 GPU。</translation>
    </message>
    <message>
        <source>One token&apos;s KV cache over every layer, per GPU: set by %1, not by the weight format.</source>
        <translation>一个 token 在所有层上的 KV Cache，每块 GPU：由 %1 决定，与权重格式无关。</translation>
    </message>
    <message>
        <source>The KV cache of the whole batch at its sequence length, per GPU.</source>
        <translation>整个 Batch 在当前序列长度下的 KV Cache，每块 GPU。</translation>
    </message>
    <message>
        <source>What the budget leaves after weights, activations, overhead and the batch&apos;s KV cache.</source>
        <translation>预算扣除权重、激活、运行时开销和整个 Batch 的 KV Cache 之后剩下的部分。</translation>
    </message>
    <message>
        <source>Requests of %1 tokens that fit at once.</source>
        <translation>同时放得下多少个 %1 长度的请求。</translation>
    </message>
    <message>
        <source>The largest batch of sequences at this length whose KV cache fits.</source>
        <translation>在当前长度下，KV Cache 放得下的最大序列条数。</translation>
    </message>
    <message>
        <source>Tokens per second of the whole batch, from the roofline with the efficiencies.</source>
        <translation>整个 Batch 每秒生成的 token 数，由 Roofline 模型乘以效率系数得出。</translation>
    </message>
    <message>
        <source>One request&apos;s prompt alone on the GPU(s): its prefill.</source>
        <translation>单个请求的 prompt 独占 GPU 时的 Prefill 时间。</translation>
    </message>
    <message>
        <source>Which roof limits a decode step: memory bandwidth or compute.</source>
        <translation>限制一次解码步骤的是哪条上限：显存带宽还是算力。</translation>
    </message>
    <message>
        <source>Simulated quantization error of the weight format on a tensor shaped like the model&apos;s (higher is better; lossless has none). A proxy, not end quality.</source>
        <translation>权重格式在与模型同形状张量上的模拟量化误差（越高越好；无损则没有）。只是代理指标，不代表最终效果。</translation>
    </message>
    <message>
        <source>memory-bound</source>
        <translation>受显存带宽限制</translation>
    </message>
    <message>
        <source>compute-bound</source>
        <translation>受算力限制</translation>
    </message>
    <message>
        <source>lossless</source>
        <translation>无损</translation>
    </message>
    <message>
        <source>same</source>
        <translation>相同</translation>
    </message>
    <message>
        <source>Whether the engine starts and holds the whole batch at once; a column that does not start has no headroom, capacity or speed.</source>
        <translation>引擎能否启动、能否同时容纳整个 Batch；无法启动的列没有余量、容量或速度。</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>batch does not fit</source>
        <translation>Batch 放不下</translation>
    </message>
    <message>
        <source>does not start</source>
        <translation>无法启动</translation>
    </message>
    <message>
        <source>the pool holds %1 attention tokens at this length (%2 sequences × %3)</source>
        <translation>在此长度下缓存池实际容纳 %1 个注意力 token（%2 条序列 × %3）</translation>
    </message>
    <message>
        <source>the KV cache holds %1 of the %2 sequences at once; the speed is for those %1</source>
        <translation>KV 缓存同时只能容纳 %2 条序列中的 %1 条；速度按这 %1 条计算</translation>
    </message>
    <message>
        <source>runs?</source>
        <translation>能运行？</translation>
    </message>
    <message>
        <source>%1 %2 dB, relative error %3 %</source>
        <translation>%1 %2 dB，相对误差 %3 %</translation>
    </message>
    <message>
        <source>, scale %1</source>
        <translation>，缩放 %1</translation>
    </message>
    <message>
        <source>, %1 % clipped</source>
        <translation>，%1 % 被截断</translation>
    </message>
    <message>
        <source>[%1, %2] like %3: %4</source>
        <translation>[%1, %2]，模拟 %3：%4</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>not modelled</source>
        <translation>未建模</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>MLA latent</source>
        <translation>MLA 潜向量</translation>
    </message>
    <message>
        <source>keys</source>
        <translation>键</translation>
    </message>
    <message>
        <source>values</source>
        <translation>值</translation>
    </message>
    <message>
        <source>KV with a calibrated amax scale: %1 dB (engine&apos;s scale: %2 dB)</source>
        <translation>KV 采用校准的 amax 缩放：%1 dB（引擎的缩放：%2 dB）</translation>
    </message>
    <message>
        <source>Tokens the KV cache holds, as the engine logs them: vLLM&apos;s &quot;GPU KV cache size&quot;, SGLang&apos;s &quot;KV Cache is allocated. #tokens&quot;.</source>
        <translation>KV Cache 能容纳的 token 数，以引擎日志为准：vLLM 的 &quot;GPU KV cache size&quot;，SGLang 的 &quot;KV Cache is allocated. #tokens&quot;。</translation>
    </message>
    <message>
        <source>Simulated error of the KV cache dtype on synthetic keys and values, at the scale the engine uses (higher is better; lossless has none).</source>
        <translation>KV Cache 数据类型在合成键和值上的模拟误差，使用引擎实际的缩放（越高越好；无损则没有误差）。</translation>
    </message>
    <message>
        <source>simulated quantization error; SQNR is a proxy for end quality: the relative error of the simulated tensors in dB, not a measured accuracy</source>
        <translation>模拟的量化误差；SQNR 只是最终质量的近似指标：它是模拟张量的相对误差（以 dB 计），不是实测的精度</translation>
    </message>
    <message>
        <source>KV capacity as the engine logs it</source>
        <translation>引擎日志中的 KV 容量</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <comment>a difference to the first column: absolute (percentage)</comment>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>; layer output %1 dB</source>
        <translation>；层输出 %1 dB</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>exact</source>
        <translation>精确</translation>
    </message>
    <message>
        <source>diffuse queries</source>
        <translation>分散的查询</translation>
    </message>
    <message>
        <source>queries on the keys&apos; outlier channels</source>
        <translation>落在键离群通道上的查询</translation>
    </message>
    <message>
        <source>calibrated scale</source>
        <translation>校准缩放</translation>
    </message>
    <message>
        <source>engine&apos;s scale</source>
        <translation>引擎的缩放</translation>
    </message>
    <message>
        <source>%1, %2: output %3 dB at %4 tokens; %5 % of the attention moves (logit error %6 rms, logits&apos; std %7)</source>
        <translation>%1，%2：在 %4 个 token 处输出 %3 dB；%5 % 的注意力发生转移（logit 误差均方根 %6，logit 标准差 %7）</translation>
    </message>
    <message>
        <source>attention output over %1 tokens: %2 dB for diffuse queries, %3 dB for queries on the keys&apos; outlier channels (the cache itself: %4 dB; a key&apos;s rounding becomes a logit error)</source>
        <translation>%1 个 token 上的注意力输出：分散的查询 %2 dB，落在键离群通道上的查询 %3 dB（缓存本身：%4 dB；键的舍入会变成 logit 误差）</translation>
    </message>
    <message>
        <source>Simulated error of the layer output X·Wᵀ on activations with outlier channels, the activations quantized too where the kernel is W8A8: what AWQ and GPTQ lower.</source>
        <translation>在含离群通道的激活上模拟的层输出 X·Wᵀ 误差；若内核为 W8A8，激活也一并量化：这正是 AWQ 和 GPTQ 所降低的误差。</translation>
    </message>
    <message>
        <source>Simulated error of the attention output softmax(qKᵀ/√d)·V over 4,096 cached tokens (diffuse queries, the engine&apos;s scale): where a key&apos;s rounding becomes a logit error.</source>
        <translation>在 4,096 个缓存 token 上模拟的注意力输出 softmax(qKᵀ/√d)·V 误差（分散查询，引擎缩放）：键的舍入在此变成 logit 误差。</translation>
    </message>
    <message>
        <source>layer output SQNR</source>
        <translation>层输出 SQNR</translation>
    </message>
    <message>
        <source>attention output SQNR</source>
        <translation>注意力输出 SQNR</translation>
    </message>
    <message>
        <source>KV scale: %1</source>
        <translation>KV 缩放：%1</translation>
    </message>
    <message>
        <source>with the %1 drafter: %2 tokens a step, %3x decoding without it (%4 tokens/s)</source>
        <translation>使用 %1 草稿模型：每步 %2 个 token，是不用它时解码的 %3 倍（%4 tokens/s）</translation>
    </message>
</context>
<context>
    <name>kvscope::CompareView</name>
    <message>
        <source>Column %1: %2</source>
        <translation>第 %1 列：%2</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>正在对比…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>auto (%1)</source>
        <translation>auto（%1）</translation>
    </message>
    <message>
        <source>Column %1</source>
        <translation>第 %1 列</translation>
    </message>
    <message>
        <source>Add column</source>
        <translation>添加列</translation>
    </message>
    <message>
        <source>Add a column with the explorer&apos;s scenario as it is; then change its knobs.</source>
        <translation>按探索页当前的场景添加一列，然后修改它的选项。</translation>
    </message>
    <message>
        <source>Seed question: BF16 / AWQ INT4 × BF16 / FP8 KV</source>
        <translation>经典问题：BF16 / AWQ INT4 × BF16 / FP8 KV</translation>
    </message>
    <message>
        <source>Four columns on the explorer&apos;s model, GPU and workload: BF16 weights + BF16 KV · BF16 + FP8 KV · AWQ INT4 + 16-bit KV · AWQ INT4 + FP8 KV.</source>
        <translation>在探索页的模型、GPU 和负载上生成四列：BF16 权重 + BF16 KV · BF16 + FP8 KV · AWQ INT4 + 16 位 KV · AWQ INT4 + FP8 KV。</translation>
    </message>
    <message>
        <source>Compare 2 to 4 precisions of the explorer&apos;s scenario side by side: add columns and change their knobs, or start from the seed question.</source>
        <translation>并排对比探索页场景的 2 到 4 种精度：添加列并修改选项，或从经典问题开始。</translation>
    </message>
    <message>
        <source>Weights (%1)</source>
        <translation>权重（%1）</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>Group size</source>
        <translation>分组大小</translation>
    </message>
    <message>
        <source>KV cache (%1)</source>
        <translation>KV Cache（%1）</translation>
    </message>
    <message>
        <source>per row</source>
        <translation>每行</translation>
    </message>
    <message>
        <source>&lt;b&gt;Accuracy&lt;/b&gt;: %1.</source>
        <translation>&lt;b&gt;精度&lt;/b&gt;：%1。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Accuracy&lt;/b&gt; simulated on:</source>
        <translation>&lt;b&gt;精度&lt;/b&gt;模拟所用张量：</translation>
    </message>
    <message>
        <source>Edit columns</source>
        <translation>编辑列</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>Memory and speed</source>
        <translation>显存与速度</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>&lt;i&gt;same family&lt;/i&gt; </source>
        <translation>&lt;i&gt;同一模型家族&lt;/i&gt; </translation>
    </message>
    <message>
        <source>Published results for these formats (the model&apos;s family first)</source>
        <translation>这些格式的已发表结果（本模型家族优先）</translation>
    </message>
    <message>
        <source>No published result measures: %1</source>
        <translation>尚无已发表结果测量：%1</translation>
    </message>
    <message>
        <source>%1 — %2, %3: %4 %5 → %6 %7 (%8; &lt;a href=&quot;%9&quot;&gt;source&lt;/a&gt;)</source>
        <translation>%1 — %2，%3：%4 %5 → %6 %7（%8；&lt;a href=&quot;%9&quot;&gt;来源&lt;/a&gt;）</translation>
    </message>
    <message>
        <source>Serving features</source>
        <translation>服务特性</translation>
    </message>
    <message>
        <source>Columns on the explorer&apos;s model, GPU, precisions and workload: the bare deployment, then each feature alone: its speculative drafter (%1 drafts a step) · %2 LoRA slots of rank %3 · a system prompt of half the sequence shared by every request.</source>
        <translation>以探索器的模型、GPU、精度和负载为基础的各列：不带任何特性的部署，然后每列只加一项特性：它的投机解码草稿器（每步 %1 个草稿）· %2 个秩为 %3 的 LoRA 槽位 · 所有请求共享的、长度为序列一半的系统提示词。</translation>
    </message>
    <message>
        <source>LoRA slots (%1)</source>
        <translation>LoRA 槽位（%1）</translation>
    </message>
    <message>
        <source>LoRA rank (%1)</source>
        <translation>LoRA 秩（%1）</translation>
    </message>
    <message>
        <source>Shared prefix (%1)</source>
        <translation>共享前缀（%1）</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Show or fold the rows that set each column&apos;s weights, quantization, KV cache, GPUs and ranks, drafter, LoRA slots and shared prefix.</source>
        <translation>显示或折叠设置每列权重、量化、KV Cache、GPU 与并行副本、草稿模型、LoRA 槽位和共享前缀的行。</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开启</translation>
    </message>
    <message>
        <source>over all GPUs</source>
        <translation>切分到全部 GPU</translation>
    </message>
</context>
<context>
    <name>kvscope::Comparison</name>
    <message>
        <source>%3 loads %1 weights only from a checkpoint stored that way (the same model quantized with %2); it does not quantize a 16-bit checkpoint</source>
        <translation>%3 只从以该格式存储的检查点加载 %1 权重（即用 %2 量化过的同一模型）；它不会量化 16 位检查点</translation>
    </message>
    <message>
        <source>“%1” and “%2” cast their KV cache to the same %3 from different 16-bit activations (%4 and %5): their KV SQNR differs by that source tensor, not by the cache format</source>
        <translation>“%1”和“%2”都把 KV Cache 转换为同样的 %3，但源自不同的 16 位激活（%4 和 %5）：两者 KV SQNR 的差别来自源张量，而非缓存格式</translation>
    </message>
</context>
<context>
    <name>kvscope::CustomGpuDialog</name>
    <message>
        <source>Custom GPU</source>
        <translation>自定义 GPU</translation>
    </message>
    <message>
        <source>e.g. My workstation GPU</source>
        <translation>例如：我的工作站 GPU</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Memory the driver reports</source>
        <translation>驱动报告的显存</translation>
    </message>
    <message>
        <source>Memory bandwidth</source>
        <translation>显存带宽</translation>
    </message>
    <message>
        <source>Dense BF16 compute</source>
        <translation>稠密 BF16 算力</translation>
    </message>
    <message>
        <source>Enter the memory CUDA/ROCm reports (nvidia-smi&apos;s total, a little below the marketed size); vLLM&apos;s budget starts from it. %1</source>
        <translation>请输入 CUDA/ROCm 报告的显存（nvidia-smi 显示的总量，略小于标称容量）；vLLM 的预算由此算起。%1</translation>
    </message>
    <message>
        <source>The datasheet&apos;s FP32 (non-tensor) rate: AWQ and GPTQ kernels unpack their weights on these units</source>
        <translation>数据手册中的 FP32（非张量核心）算力：AWQ 与 GPTQ 内核在这些单元上解包权重</translation>
    </message>
    <message>
        <source>FP32 vector compute</source>
        <translation>FP32 向量算力</translation>
    </message>
</context>
<context>
    <name>kvscope::ErrorHistogramChart</name>
    <message>
        <source>Relative error (w − w′) / |w|</source>
        <translation>相对误差 (w − w′) / |w|</translation>
    </message>
    <message>
        <source>Error w − w′</source>
        <translation>误差 w − w′</translation>
    </message>
    <message>
        <source>relative error</source>
        <translation>相对误差</translation>
    </message>
    <message>
        <source>error</source>
        <translation>误差</translation>
    </message>
</context>
<context>
    <name>kvscope::ExplainLogDialog</name>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Reading the pasted log…</source>
        <translation>正在读取粘贴的日志…</translation>
    </message>
    <message>
        <source>the pasted log</source>
        <translation>粘贴的日志</translation>
    </message>
    <message>
        <source>Open a start-up log</source>
        <translation>打开启动日志</translation>
    </message>
    <message>
        <source>Logs (*.log *.txt);;All files (*)</source>
        <translation>日志 (*.log *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Explained %1: each part of the memory per GPU as the log gives it and as kvscope plans it.</source>
        <translation>已解释 %1：每块 GPU 显存的各个部分，日志记录值与 kvscope 规划值并列。</translation>
    </message>
    <message>
        <source>Explain a start-up log</source>
        <translation>解释启动日志</translation>
    </message>
    <message>
        <source>&amp;Open log…</source>
        <translation>打开日志(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Explain</source>
        <translation>解释(&amp;E)</translation>
    </message>
    <message>
        <source>Paste a vLLM start-up log (the V1 engine, 0.10 on) or an SGLang one, open a log file or drop one on the window: kvscope reads the scenario it describes, plans it and says where each GiB went, why the KV cache has its size and what would hold more.</source>
        <translation>粘贴 vLLM（V1 引擎，0.10 起）或 SGLang 的启动日志，打开日志文件，或把它拖到窗口上：kvscope 读出日志描述的场景、进行规划，并说明每个 GiB 用在了哪里、KV Cache 为何是这个大小，以及怎样才能容纳更多。</translation>
    </message>
    <message>
        <source>Paste the log here: from the line with the engine&apos;s arguments to &quot;Maximum concurrency&quot; (vLLM) or &quot;max_total_num_tokens&quot; (SGLang).</source>
        <translation>在此粘贴日志：从引擎参数那一行到“Maximum concurrency”（vLLM）或“max_total_num_tokens”（SGLang）。</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <source>&amp;GPU:</source>
        <translation>GPU(&amp;G)：</translation>
    </message>
    <message>
        <source>from the log</source>
        <translation>按日志</translation>
    </message>
    <message>
        <source>The model, when the log names none kvscope knows: a preset, a HuggingFace repository id, or a config.json or model folder (explain-log&apos;s %1)</source>
        <translation>日志未给出 kvscope 认识的模型时在此指定：预设、HuggingFace 仓库 id，或 config.json、模型文件夹（即 explain-log 的 %1）</translation>
    </message>
    <message>
        <source>Kept: plans of this deployment use the parts %1 measured (%2).</source>
        <translation>已保存：此部署（%2）的规划将使用 %1 实测的各项。</translation>
    </message>
    <message>
        <source>Plan this deployment (%1) with the parts the log measured, in place of kvscope&apos;s estimates, from now on</source>
        <translation>今后规划此部署（%1）时，用日志实测的各项代替 kvscope 的估计</translation>
    </message>
    <message>
        <source>&amp;Calibrate from this log</source>
        <translation>用此日志校准(&amp;C)</translation>
    </message>
    <message>
        <source>v&amp;LLM:</source>
        <translation>v&amp;LLM：</translation>
    </message>
    <message>
        <source>The vLLM release, when the log does not print its version (an excerpt); without it the newest modelled release is assumed (explain-log&apos;s %1)</source>
        <translation>vLLM 版本：日志未打印版本（只是摘录）时填写；不填则按已建模的最新版本规划（explain-log 的 %1）</translation>
    </message>
    <message>
        <source>The GPU, when the log&apos;s memory does not say which: a preset, a preset with the log&apos;s memory (l40s:44.42) or custom:&lt;GiB&gt; (explain-log&apos;s %1)</source>
        <translation>日志的显存无法确定 GPU 时所用的 GPU：预设、带日志显存的预设（l40s:44.42）或 custom:&lt;GiB&gt;（explain-log 的 %1）</translation>
    </message>
</context>
<context>
    <name>kvscope::ExplorerView</name>
    <message>
        <source>vs sequence length</source>
        <translation>随序列长度</translation>
    </message>
    <message>
        <source>vs batch size</source>
        <translation>随 Batch 大小</translation>
    </message>
    <message>
        <source>What the growth chart&apos;s horizontal axis shows. Shortcut: Ctrl+T.</source>
        <translation>增长图的横轴。快捷键：Ctrl+T。</translation>
    </message>
    <message>
        <source>Copy figures</source>
        <translation>复制数据</translation>
    </message>
    <message>
        <source>Copy the figures as text (Ctrl+Shift+C).</source>
        <translation>以文本复制这些数据（Ctrl+Shift+C）。</translation>
    </message>
    <message>
        <source>Copy JSON</source>
        <translation>复制 JSON</translation>
    </message>
    <message>
        <source>Copy the whole plan as JSON, the same object as kvscope calc %1.</source>
        <translation>以 JSON 复制完整结果，与 kvscope calc %1 输出相同。</translation>
    </message>
    <message>
        <source>Growth chart: %1</source>
        <translation>增长图：%1</translation>
    </message>
    <message>
        <source>%1 on %2 × %3</source>
        <translation>%1，%2 × %3</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>linear axis</source>
        <translation>线性坐标</translation>
    </message>
    <message>
        <source>log axis</source>
        <translation>对数坐标</translation>
    </message>
    <message>
        <source>A linear axis shows KV memory growing in a straight line; a logarithmic one shows the whole range at once.</source>
        <translation>线性坐标下 KV 内存的增长是一条直线；对数坐标可一次看到整个范围。</translation>
    </message>
    <message>
        <source>Proposals: %1</source>
        <translation>改动建议：%1</translation>
    </message>
    <message>
        <source>Speed chart: %1</source>
        <translation>速度图：%1</translation>
    </message>
    <message>
        <source>as if MHA / no window</source>
        <translation>假设 MHA / 无窗口</translation>
    </message>
    <message>
        <source>Adds dashed KV lines for the same model as if every query head kept its own K and V (no GQA, no MLA latent) and as if every layer kept every token (no sliding window, chunk or recurrent state): what those designs save.</source>
        <translation>为同一模型添加虚线 KV 曲线：假设每个查询头都有自己的 K 和 V（无 GQA、无 MLA 潜向量），以及假设每层都保留全部 token（无滑动窗口、分块或循环状态）：这些设计省下了多少。</translation>
    </message>
    <message>
        <source>Formulas</source>
        <translation>公式</translation>
    </message>
    <message>
        <source>Show the formulas behind the figures, with this scenario&apos;s numbers, and the engine&apos;s launch line (Ctrl+Shift+F).</source>
        <translation>显示各数字背后的公式（代入本场景的数值）以及推理引擎的启动命令（Ctrl+Shift+F）。</translation>
    </message>
</context>
<context>
    <name>kvscope::ExportDialog</name>
    <message>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>Save image</source>
        <translation>保存图片</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Slide, 16:9 (1920 × 1080)</source>
        <translation>幻灯片，16:9（1920 × 1080）</translation>
    </message>
    <message>
        <source>A4 handout (portrait)</source>
        <translation>A4 讲义（纵向）</translation>
    </message>
    <message>
        <source>Current (%1 × %2)</source>
        <translation>当前（%1 × %2）</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>%1× (%2 dpi)</source>
        <translation>%1×（%2 dpi）</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Caption line: model, GPU, precisions, batch, length, kvscope version</source>
        <translation>说明行：模型、GPU、精度、批次、长度、kvscope 版本</translation>
    </message>
    <message>
        <source>File (.png, .svg, .pdf):</source>
        <translation>文件（.png、.svg、.pdf）：</translation>
    </message>
    <message>
        <source>Page:</source>
        <translation>页面：</translation>
    </message>
    <message>
        <source>Size:</source>
        <translation>尺寸：</translation>
    </message>
    <message>
        <source>Scale:</source>
        <translation>缩放：</translation>
    </message>
    <message>
        <source>Theme:</source>
        <translation>主题：</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图片 (*.png);;SVG 图片 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
</context>
<context>
    <name>kvscope::FigureRenderer</name>
    <message>
        <source>not enough memory for a %1 × %2 image</source>
        <translation>内存不足，无法生成 %1 × %2 的图片</translation>
    </message>
    <message>
        <source>cannot encode the PNG: %1</source>
        <translation>无法编码 PNG：%1</translation>
    </message>
    <message>
        <source>%1 · %2 × %3 · %10 %4 %11 %5 %12 %6 · batch %7 · %8 tokens · kvscope %9</source>
        <translation>%1 · %2 × %3 · %10 %4 %11 %5 %12 %6 · 批次 %7 · %8 个 token · kvscope %9</translation>
    </message>
    <message>
        <source>%1 · schemes %2 · group %3 · %4 bins · kvscope %5</source>
        <translation>%1 · 方案 %2 · 分组 %3 · %4 个区间 · kvscope %5</translation>
    </message>
    <message>
        <source>whole row</source>
        <translation>整行</translation>
    </message>
    <message>
        <source>%1: unsupported extension &apos;%2&apos; (use .png, .svg, .pdf, .csv or .json)</source>
        <translation>%1：不支持的扩展名“%2”（请使用 .png、.svg、.pdf、.csv 或 .json）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>size %1 × %2: each side must be from %3 to %4 pixels</source>
        <translation>尺寸 %1 × %2：每边须在 %3 到 %4 像素之间</translation>
    </message>
    <message>
        <source>scale %1: must be from 1 to %2</source>
        <translation>缩放 %1：须在 1 到 %2 之间</translation>
    </message>
    <message>
        <source>%1 · %2 × %3 · batch %4 · %5 tokens · %6 · kvscope %7</source>
        <translation>%1 · %2 × %3 · 批次 %4 · %5 个 token · %6 · kvscope %7</translation>
    </message>
    <message>
        <source>%1 · one KV head, keys of %2 values · %3, %4 scale · %5 query %6 of %7 · %8 tokens · kvscope %9</source>
        <translation>%1 · 一个 KV 头，每个键 %2 个值 · %3，%4 缩放 · %5 查询（第 %6 个，共 %7 个）· %8 个 token · kvscope %9</translation>
    </message>
</context>
<context>
    <name>kvscope::FiguresModel</name>
    <message>
        <source>Scheme</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>Bits/weight</source>
        <translation>每权重位数</translation>
    </message>
    <message>
        <source>MSE</source>
        <translation>MSE</translation>
    </message>
    <message>
        <source>SQNR (dB)</source>
        <translation>SQNR (dB)</translation>
    </message>
    <message>
        <source>Max |e|</source>
        <translation>最大 |e|</translation>
    </message>
    <message>
        <source>Mean |e|</source>
        <translation>平均 |e|</translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation>余弦相似度</translation>
    </message>
    <message>
        <source>Clipped</source>
        <translation>截断</translation>
    </message>
    <message>
        <source>Flushed to 0</source>
        <translation>归零</translation>
    </message>
    <message>
        <source>Output SQNR (dB)</source>
        <translation>输出 SQNR (dB)</translation>
    </message>
</context>
<context>
    <name>kvscope::FiguresPanel</name>
    <message>
        <source>KV cache per token</source>
        <translation>每个 token 的 KV Cache</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>KV cache for the batch</source>
        <translation>整个 Batch 的 KV Cache</translation>
    </message>
    <message>
        <source>%1 × %2 tokens, %3</source>
        <translation>%1 × %2 个 token，%3</translation>
    </message>
    <message>
        <source>KV capacity</source>
        <translation>KV Cache 容量</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <source>%1 blocks of %2 tokens · %3 available</source>
        <translation>%1 个块，每块 %2 个 token · 可用 %3</translation>
    </message>
    <message>
        <source>Max concurrency</source>
        <translation>最大并发</translation>
    </message>
    <message>
        <source>requests of %1 tokens (%2)</source>
        <translation>每个请求 %1 个 token（%2）</translation>
    </message>
    <message>
        <source>Weights per GPU</source>
        <translation>每块 GPU 的权重</translation>
    </message>
    <message>
        <source>unquantized</source>
        <translation>未量化</translation>
    </message>
    <message>
        <source>FP8, %1×%2 block scales</source>
        <translation>FP8，%1×%2 分块 scale</translation>
    </message>
    <message>
        <source>FP8, per-tensor scale</source>
        <translation>FP8，逐张量 scale</translation>
    </message>
    <message>
        <source>INT8, per-channel scales</source>
        <translation>INT8，逐通道 scale</translation>
    </message>
    <message>
        <source>AWQ INT%1, group %2</source>
        <translation>AWQ INT%1，分组 %2</translation>
    </message>
    <message>
        <source>GPTQ INT%1, group %2</source>
        <translation>GPTQ INT%1，分组 %2</translation>
    </message>
    <message>
        <source>NF4, blocks of 64</source>
        <translation>NF4，每 64 个一块</translation>
    </message>
    <message>
        <source>MXFP4 experts, blocks of 32</source>
        <translation>MXFP4 专家，每 32 个一块</translation>
    </message>
    <message>
        <source>compressed-tensors</source>
        <translation>compressed-tensors</translation>
    </message>
    <message>
        <source>compressed-tensors %1</source>
        <translation>compressed-tensors %1</translation>
    </message>
    <message>
        <source>measured from checkpoint</source>
        <translation>按 checkpoint 实测</translation>
    </message>
    <message>
        <source>measured from checkpoint: %1</source>
        <translation>按 checkpoint 实测：%1</translation>
    </message>
    <message>
        <source>%1 layers × %2 B</source>
        <translation>%1 层 × %2 B</translation>
    </message>
    <message>
        <source>Mamba-2</source>
        <translation>Mamba-2</translation>
    </message>
    <message>
        <source>%1 bits</source>
        <translation>%1 位</translation>
    </message>
    <message>
        <source>MLA latent (%1 + %2) as fp8_ds_mla</source>
        <translation>MLA 潜向量 (%1 + %2)，以 fp8_ds_mla 存储</translation>
    </message>
    <message>
        <source>MLA latent (%1 + %2) × %3</source>
        <translation>MLA 潜向量 (%1 + %2) × %3</translation>
    </message>
    <message>
        <source>+ %1 B indexer key</source>
        <translation>+ %1 B 索引器键</translation>
    </message>
    <message>
        <source>, replicated on every GPU</source>
        <translation>，每块 GPU 各存一份</translation>
    </message>
    <message>
        <source>GQA: %1 KV heads for %2 query heads</source>
        <translation>GQA：%2 个查询头共用 %1 个 KV 头</translation>
    </message>
    <message>
        <source>%1 KV heads</source>
        <translation>%1 个 KV 头</translation>
    </message>
    <message>
        <source>%1 per GPU, replicated</source>
        <translation>每块 GPU %1 个（复制）</translation>
    </message>
    <message>
        <source>%1 per GPU</source>
        <translation>每块 GPU %1 个</translation>
    </message>
    <message>
        <source>%1; %2 × (K %3 + V %4 dims) × %5</source>
        <translation>%1；%2 × (K %3 + V %4 维) × %5</translation>
    </message>
    <message>
        <source>%1 of %2 layers slide over a %3-token window</source>
        <translation>%2 层中有 %1 层只保留 %3 token 的滑动窗口</translation>
    </message>
    <message>
        <source>%1 of %2 layers keep only their %3-token chunk</source>
        <translation>%2 层中有 %1 层只保留所在的 %3 token 分块</translation>
    </message>
    <message>
        <source>%1 of %2 layers reuse earlier layers&apos; caches</source>
        <translation>%2 层中有 %1 层复用前面层的缓存</translation>
    </message>
    <message>
        <source>%1 of %2 layers are %3: %4 of fixed state per sequence</source>
        <translation>%2 层中有 %1 层是 %3：每条序列固定 %4 状态</translation>
    </message>
    <message>
        <source>Gated DeltaNet</source>
        <translation>Gated DeltaNet</translation>
    </message>
    <message>
        <source>whole blocks of %1 tokens</source>
        <translation>按整块分配（每块 %1 token）</translation>
    </message>
    <message>
        <source>vLLM pads its layer groups with %1 empty slots</source>
        <translation>vLLM 为层组补齐 %1 个空位</translation>
    </message>
    <message>
        <source>no room: weights, activations and overhead exceed the budget by %1</source>
        <translation>没有空间：权重、激活和开销已超出预算 %1</translation>
    </message>
    <message>
        <source>each block serves a group of %1 layers (%2 groups)</source>
        <translation>每块服务一组 %1 层（共 %2 组）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>not one request of %1 tokens (%2)</source>
        <translation>连一个 %1 token 的请求都放不下（%2）</translation>
    </message>
    <message>
        <source>%1 over the budget alone</source>
        <translation>仅权重就超出预算 %1</translation>
    </message>
    <message>
        <source>the pool holds %1 attention tokens at this length (%2 × %3)</source>
        <translation>在此长度下缓存池实际容纳 %1 个注意力 token（%2 × %3）</translation>
    </message>
    <message>
        <source>vLLM&apos;s logged KV capacity</source>
        <translation>vLLM 日志中的 KV 容量</translation>
    </message>
    <message>
        <source>%1 parameters, %2 active per token</source>
        <translation>%1 参数，每个 token 激活 %2</translation>
    </message>
    <message>
        <source>%1 parameters</source>
        <translation>%1 参数</translation>
    </message>
    <message>
        <source>%1 · %2 bits/weight · %3</source>
        <translation>%1 · %2 位/权重 · %3</translation>
    </message>
    <message>
        <source>%1 dB</source>
        <translation>%1 dB</translation>
    </message>
    <message>
        <source>lossless</source>
        <translation>无损</translation>
    </message>
    <message>
        <source>not modelled</source>
        <translation>未建模</translation>
    </message>
    <message>
        <source>weights: %1</source>
        <translation>权重：%1</translation>
    </message>
    <message>
        <source>KV cache: %1</source>
        <translation>KV Cache：%1</translation>
    </message>
    <message>
        <source>with calibrated scales: %1</source>
        <translation>校准缩放时：%1</translation>
    </message>
    <message>
        <source>simulated error, a proxy for end quality</source>
        <translation>模拟误差，最终质量的近似指标</translation>
    </message>
    <message>
        <source>Accuracy (SQNR), weights · KV</source>
        <translation>精度（SQNR），权重 · KV</translation>
    </message>
    <message>
        <source>simulating the quantization of the scenario&apos;s formats</source>
        <translation>正在模拟场景所用格式的量化</translation>
    </message>
    <message>
        <source>layer output: %1</source>
        <translation>层输出：%1</translation>
    </message>
    <message>
        <source>attention output: %1</source>
        <translation>注意力输出：%1</translation>
    </message>
    <message>
        <source>%1 blocks of shared prefix held once</source>
        <translation>共享前缀的 %1 个块只存一份</translation>
    </message>
    <message>
        <source>%1 tokens more in host memory for reuse (%2)</source>
        <translation>另有 %1 个 token 存于主机内存以供复用（%2）</translation>
    </message>
    <message>
        <source>this rank&apos;s share of %1 sequences</source>
        <translation>本副本分到的 %1 个序列中的份额</translation>
    </message>
    <message>
        <source>one of %1 data-parallel ranks; the deployment holds %2 tokens</source>
        <translation>%1 个数据并行副本之一；整个部署容纳 %2 个 token</translation>
    </message>
    <message>
        <source>%1× over the %2 ranks</source>
        <translation>%2 个副本合计 %1×</translation>
    </message>
    <message>
        <source>SGLang&apos;s FP4 pool adds %1 B a token of dequantization workspace</source>
        <translation>SGLang 的 FP4 缓存池每个 token 另加 %1 B 反量化工作区</translation>
    </message>
    <message>
        <source>SGLang keeps the window layers in a pool of their own</source>
        <translation>SGLang 把窗口层放在单独的池中</translation>
    </message>
    <message>
        <source>full layers&apos; pool; the window layers&apos; pool holds %1 (%2 × it, %3) · %4 available</source>
        <translation>全注意力层的池；窗口层的池容纳 %1（为其 %2 倍，%3）· 可用 %4</translation>
    </message>
    <message>
        <source>a pool of single tokens · %1 available</source>
        <translation>以单个 token 为单位的池 · 可用 %1</translation>
    </message>
    <message>
        <source>%1 requests&apos; recurrent states in a pool of their own (%2)</source>
        <translation>另有单独的池容纳 %1 个请求的循环状态（%2）</translation>
    </message>
</context>
<context>
    <name>kvscope::Fit</name>
    <message>
        <source>%1 requests</source>
        <translation>%1 个请求</translation>
    </message>
    <message>
        <source>%1 requests of %2 tokens</source>
        <translation>%1 个 %2 token 的请求</translation>
    </message>
    <message>
        <source>no configuration of up to %1 GPU(s) serves %2 of %3</source>
        <translation>最多 %1 块 GPU 的配置都无法为 %3 服务 %2</translation>
    </message>
    <message>
        <source>%1 x %2 in %3 pipeline stages</source>
        <translation>%1 × %2（%3 个流水线级）</translation>
    </message>
    <message>
        <source>; the most, %1 with %2 weights and a %3 KV cache, hold %4</source>
        <translation>；容纳最多的是 %1（%2 权重、%3 KV Cache），可容纳 %4 个</translation>
    </message>
    <message>
        <source>; the closest, %1 with %2 weights and a %3 KV cache, lacks %4 per GPU before its KV cache</source>
        <translation>；最接近的是 %1（%2 权重、%3 KV Cache），未计 KV Cache 时每块 GPU 已缺 %4</translation>
    </message>
    <message>
        <source>; the closest, %1 with %2 weights and a %3 KV cache, has %4 per GPU for its KV cache, not one request</source>
        <translation>；最接近的是 %1（%2 权重、%3 KV Cache），每块 GPU 留给 KV Cache 的 %4 容纳不下一个请求</translation>
    </message>
    <message>
        <source>%1 x %2 in %3 data-parallel ranks</source>
        <translation>%1 x %2，分为 %3 个数据并行副本</translation>
    </message>
</context>
<context>
    <name>kvscope::FitBanner</name>
    <message>
        <source>&lt;b&gt;Fits.&lt;/b&gt; %1 headroom of the %2 budget per GPU.</source>
        <translation>&lt;b&gt;放得下。&lt;/b&gt;每块 GPU 的 %2 预算还剩 %1。</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <source>&lt;b&gt;The weights alone do not fit:&lt;/b&gt; %1 of weights per GPU against a %2 budget, %3 over before any activations, overhead or KV cache.</source>
        <translation>&lt;b&gt;仅权重就放不下：&lt;/b&gt;每块 GPU 权重 %1，预算 %2，未计激活、开销和 KV 缓存就已超出 %3。</translation>
    </message>
    <message>
        <source>&lt;b&gt;No room for a KV cache:&lt;/b&gt; weights, activations and runtime overhead exceed the %1 budget per GPU by %2.</source>
        <translation>&lt;b&gt;没有 KV 缓存的空间：&lt;/b&gt;权重、激活和运行时开销超出每块 GPU 的 %1 预算 %2。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Does not fit:&lt;/b&gt; %1 over the %2 budget per GPU.</source>
        <translation>&lt;b&gt;放不下：&lt;/b&gt;超出每块 GPU 的 %2 预算 %1。</translation>
    </message>
    <message>
        <source>batch %1</source>
        <translation>批次 %1</translation>
    </message>
    <message>
        <source>%1 KV cache</source>
        <translation>%1 KV 缓存</translation>
    </message>
    <message>
        <source>%1 weights %2 (needs a checkpoint stored as %1)</source>
        <translation>%1 权重 %2（需要以 %1 存储的检查点）</translation>
    </message>
    <message>
        <source>%1 weights %2</source>
        <translation>%1 权重 %2</translation>
    </message>
    <message>
        <source>%1 GPUs (tensor parallel)</source>
        <translation>%1 块 GPU（张量并行）</translation>
    </message>
    <message>
        <source>Looking for changes that make it fit…</source>
        <translation>正在寻找能让它放得下的改动…</translation>
    </message>
    <message>
        <source>Nothing kvscope tries makes it fit: a smaller batch or sequence, a narrower KV cache, quantized weights, more GPUs or a GPU with more memory.</source>
        <translation>kvscope 尝试的改动都放不下：更小的批次或序列、更窄的 KV 缓存、量化权重、更多 GPU 或显存更大的 GPU。</translation>
    </message>
    <message>
        <source>batch %1 at %2 tokens</source>
        <translation>%2 token 时批次 %1</translation>
    </message>
    <message>
        <source>%1 tokens at batch %2</source>
        <translation>批次 %2 时 %1 token</translation>
    </message>
    <message>
        <source>Room for up to %1.</source>
        <translation>最多可到：%1。</translation>
    </message>
    <message>
        <source>It would fit with: %1.</source>
        <translation>这样就放得下：%1。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The batch fits, but %3 would refuse to start&lt;/b&gt; (see the note below). %1 headroom of the %2 budget per GPU.</source>
        <translation>&lt;b&gt;批次放得下，但 %3 会拒绝启动&lt;/b&gt;（见下方说明）。每块 GPU 的 %2 预算还剩 %1。</translation>
    </message>
    <message>
        <source>%1 data-parallel ranks, experts divided</source>
        <translation>%1 个数据并行副本，专家分摊</translation>
    </message>
</context>
<context>
    <name>kvscope::FitDialog</name>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>What do I need?</source>
        <translation>我需要什么？</translation>
    </message>
    <message>
        <source>Concurrent requests:</source>
        <translation>并发请求数：</translation>
    </message>
    <message>
        <source>Tokens per request (max model length):</source>
        <translation>每个请求的 token 数（max model length）：</translation>
    </message>
    <message>
        <source>GPU:</source>
        <translation>GPU：</translation>
    </message>
    <message>
        <source>At most GPUs:</source>
        <translation>最多 GPU 数：</translation>
    </message>
    <message>
        <source>Engine:</source>
        <translation>推理引擎：</translation>
    </message>
    <message>
        <source>The longest each configuration allows</source>
        <translation>每种配置允许的最长长度</translation>
    </message>
    <message>
        <source>Any GPU</source>
        <translation>任意 GPU</translation>
    </message>
    <message numerus="yes">
        <source>%n configuration(s) serve the requests. Pick one to copy its launch line or open it in the explorer.</source>
        <translation>
            <numerusform>%n 种配置可以服务这些请求。选中一行可复制其启动命令，或在探索页中打开。</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Copy launch line</source>
        <translation>复制启动命令(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Use this</source>
        <translation>使用此配置(&amp;U)</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>The GPUs, tensor-parallel sizes and precisions that serve these requests of &lt;b&gt;%1&lt;/b&gt;, best first in the order chosen below.</source>
        <translation>能服务 &lt;b&gt;%1&lt;/b&gt; 这些请求的 GPU、张量并行规模和精度，按下面选择的顺序由好到差排列。</translation>
    </message>
    <message>
        <source>Best first:</source>
        <translation>排序依据：</translation>
    </message>
    <message>
        <source>Fewest GPUs, then (at the longest length) the longest context, the least GPU memory, the fastest decode</source>
        <translation>GPU 最少优先，其次（按最长长度时）上下文最长、GPU 显存最少、解码最快</translation>
    </message>
    <message>
        <source>The fastest decode at these requests (the step model)</source>
        <translation>在这些请求下解码最快优先（步骤模型）</translation>
    </message>
</context>
<context>
    <name>kvscope::FitResultsModel</name>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>Whole requests of the maximum length the KV cache holds at once</source>
        <translation>KV Cache 能同时容纳的最大长度完整请求数</translation>
    </message>
    <message>
        <source>The engine&apos;s KV cache capacity in tokens (vLLM&apos;s “GPU KV cache size”, SGLang&apos;s max_total_num_tokens)</source>
        <translation>引擎的 KV Cache 容量（token 数；即 vLLM 的 “GPU KV cache size”、SGLang 的 max_total_num_tokens）</translation>
    </message>
    <message>
        <source>Memory per GPU left in the budget once the weights, activations and the KV cache of these requests are in</source>
        <translation>放下权重、激活值和这些请求的 KV Cache 后，每块 GPU 预算中剩余的显存</translation>
    </message>
    <message>
        <source>Decode throughput of the whole batch, from the roofline estimate</source>
        <translation>整个 batch 的解码吞吐量（roofline 估算）</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV Cache</translation>
    </message>
    <message>
        <source>Max length</source>
        <translation>最大长度</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>KV tokens</source>
        <translation>KV token 数</translation>
    </message>
    <message>
        <source>Headroom</source>
        <translation>余量</translation>
    </message>
    <message>
        <source>Decode tok/s</source>
        <translation>解码 tok/s</translation>
    </message>
    <message>
        <source>Launch line</source>
        <translation>启动命令</translation>
    </message>
    <message>
        <source>%1 × %2 (%3 stages of %4)</source>
        <translation>%1 × %2（%3 级，每级 %4 块）</translation>
    </message>
    <message>
        <source>%1 × %2 (%3 ranks of %4, experts divided)</source>
        <translation>%1 × %2（%3 个副本，每个 %4 块，专家分摊）</translation>
    </message>
    <message>
        <source>%1 × %2 (%3 attention groups of %4)</source>
        <translation>%1 × %2（%3 个注意力组，每组 %4 块）</translation>
    </message>
</context>
<context>
    <name>kvscope::Formula</name>
    <message>
        <source>MLA: one compressed latent per token and layer instead of keys and values per head, replicated on every GPU</source>
        <translation>MLA：每个 token 每层只存一个压缩潜向量，而不是每个头的 K 和 V；在每块 GPU 上复制</translation>
    </message>
    <message>
        <source>MLA: one compressed latent per token and layer instead of keys and values per head</source>
        <translation>MLA：每个 token 每层只存一个压缩潜向量，而不是每个头的 K 和 V</translation>
    </message>
    <message>
        <source>K and V of one token in one layer on one GPU; more GPUs than KV heads, so each GPU holds a replicated head</source>
        <translation>一个 token 在一层、一块 GPU 上的 K 和 V；GPU 多于 KV 头，每块 GPU 持有一个复制的头</translation>
    </message>
    <message>
        <source>K and V of one token in one layer on one GPU</source>
        <translation>一个 token 在一层、一块 GPU 上的 K 和 V</translation>
    </message>
    <message>
        <source>every layer that keeps a per-token cache, before windows and whole blocks</source>
        <translation>所有保留逐 token 缓存的层，尚未考虑窗口和整块分配</translation>
    </message>
    <message>
        <source>the usual formula, as if every layer held every token; the lines below say what these layers really keep</source>
        <translation>常见公式，假设每层都保存全部 token；下面几行说明这些层实际保留什么</translation>
    </message>
    <message>
        <source>the usual formula: every layer holds every token of every sequence</source>
        <translation>常见公式：每层保存每个序列的全部 token</translation>
    </message>
    <message>
        <source>full-attention layers keep every token</source>
        <translation>全注意力层保留全部 token</translation>
    </message>
    <message>
        <source>sliding-window layers keep only the last window of tokens</source>
        <translation>滑动窗口层只保留最后一个窗口内的 token</translation>
    </message>
    <message>
        <source>chunked layers keep only the tokens of the current chunk</source>
        <translation>分块层只保留当前块内的 token</translation>
    </message>
    <message>
        <source>what the layers keep, before whole blocks</source>
        <translation>各层实际保留的量，尚未按整块分配</translation>
    </message>
    <message>
        <source>one recurrent layer&apos;s state for one sequence</source>
        <translation>一个循环层为一个序列保存的状态</translation>
    </message>
    <message>
        <source>fixed per sequence: the state does not grow with the sequence length</source>
        <translation>每个序列固定：状态不随序列长度增长</translation>
    </message>
    <message>
        <source>whole blocks: a sequence holds ceil(tokens / block size) of them in each group</source>
        <translation>整块分配：每个组中一个序列占 ceil(token 数 / 块大小) 个块</translation>
    </message>
    <message>
        <source>tensor parallelism splits the KV heads over the GPUs</source>
        <translation>张量并行把 KV 头分到各块 GPU 上</translation>
    </message>
    <message>
        <source>measured from the file&apos;s tensors, each stored in its own block type</source>
        <translation>按文件中的张量实测，每个张量以其自身的块类型存储</translation>
    </message>
    <message>
        <source>the quantized linear layers: weights plus the scales and zero points stored with them</source>
        <translation>量化后的线性层：权重加上与之一起存储的 scale 和零点</translation>
    </message>
    <message>
        <source>parameters the method leaves in %1</source>
        <translation>量化方法保留为 %1 的参数</translation>
    </message>
    <message>
        <source>the whole model: the unquantized share pulls the average up</source>
        <translation>整个模型：未量化的部分拉高了平均值</translation>
    </message>
    <message>
        <source>unquantized: every weight in %2 %1</source>
        <translation>未量化：每个权重都是 %2 %1</translation>
    </message>
    <message>
        <source>what one GPU loads: its shards of the weights and the rotary tables</source>
        <translation>一块 GPU 加载的内容：它分到的权重分片和旋转位置编码表</translation>
    </message>
    <message>
        <source>the share of GPU memory vLLM may use</source>
        <translation>vLLM 可以使用的 GPU 显存比例</translation>
    </message>
    <message>
        <source>vLLM&apos;s CUDA-graph estimate: the first capture, then the others</source>
        <translation>vLLM 的 CUDA 图估计：第一次捕获，再加其余各图</translation>
    </message>
    <message>
        <source>what is left for the KV cache</source>
        <translation>留给 KV 缓存的部分</translation>
    </message>
    <message>
        <source>blocks of the shared pool: one spans a page in every slot of a group</source>
        <translation>共享池中的块：一个块覆盖组内每个槽位的一页</translation>
    </message>
    <message>
        <source>vLLM&apos;s &quot;GPU KV cache size&quot; in tokens</source>
        <translation>vLLM 的“GPU KV cache size”，以 token 计</translation>
    </message>
    <message>
        <source>blocks one request of %1 tokens reserves</source>
        <translation>一个 %1 长度的请求预留的块数</translation>
    </message>
    <message>
        <source>vLLM&apos;s &quot;Maximum concurrency&quot; for requests of %1 tokens</source>
        <translation>vLLM 的“Maximum concurrency”，按 %1 长度的请求计</translation>
    </message>
    <message>
        <source>the batch fits</source>
        <translation>该批次放得下</translation>
    </message>
    <message>
        <source>negative: the batch does not fit</source>
        <translation>为负：该批次放不下</translation>
    </message>
    <message>
        <source>SGLang&apos;s static share: the weights and its token pool</source>
        <translation>SGLang 的静态份额：权重及其 token 池</translation>
    </message>
    <message>
        <source>SGLang&apos;s max_total_num_tokens</source>
        <translation>SGLang 的 max_total_num_tokens</translation>
    </message>
    <message>
        <source>the weights and activations one step reads, at the share of the bandwidth the matrix kernels reach</source>
        <translation>一步读取的权重和激活值，按矩阵内核能达到的带宽比例计</translation>
    </message>
    <message>
        <source>a quantized kernel unpacks and scales each weight it reads: extra time per byte</source>
        <translation>量化内核要解包并缩放读到的每个权重：每字节多花的时间</translation>
    </message>
    <message>
        <source>every sequence&apos;s KV cache, at the share of the bandwidth the attention kernels reach</source>
        <translation>每条序列的 KV 缓存，按注意力内核能达到的带宽比例计</translation>
    </message>
    <message>
        <source>an FP8 cache is converted back as it is read: extra time per byte</source>
        <translation>FP8 缓存读取时要转换回来：每字节多花的时间</translation>
    </message>
    <message>
        <source>the memory side of the step</source>
        <translation>这一步在显存读取上花的时间</translation>
    </message>
    <message>
        <source>the tensor cores work while the weights stream in: only what they need beyond the reads adds to the step</source>
        <translation>权重读入时张量核心同时在算：只有超出读取时间的部分才计入这一步</translation>
    </message>
    <message>
        <source>memory-bound: the reads hide the compute</source>
        <translation>受显存带宽限制：读取时间掩盖了计算</translation>
    </message>
    <message>
        <source>tensor parallelism: each all-reduce waits a fixed latency, then moves its share of the hidden states</source>
        <translation>张量并行：每次 all-reduce 先等一段固定延迟，再传输它那份隐藏状态</translation>
    </message>
    <message>
        <source>every MoE layer routes its tokens to their experts</source>
        <translation>每个 MoE 层把 token 路由到各自的专家</translation>
    </message>
    <message>
        <source>the engine&apos;s host work: once per step and once per sequence</source>
        <translation>引擎在主机端的工作：每步一次，每条序列一次</translation>
    </message>
    <message>
        <source>a new request passes the API server, the tokenizer and admission</source>
        <translation>新请求要经过 API 服务器、分词器和准入</translation>
    </message>
    <message>
        <source>a %1-token prompt alone: the same terms, priced for the prefill</source>
        <translation>单独一条 %1 token 的提示词：同样的各项，按预填充计价</translation>
    </message>
    <message>
        <source>one decode step: every sequence of the batch emits one token</source>
        <translation>一个解码步：批中每条序列输出一个 token</translation>
    </message>
    <message>
        <source>the tokens all sequences emit per second</source>
        <translation>所有序列每秒输出的 token 数</translation>
    </message>
    <message>
        <source>one block of one layer: the unit %1 allocates</source>
        <translation>一层的一个块：%1 分配的单位</translation>
    </message>
    <message>
        <source>one block of one layer; %1 raises the block size until one page holds a recurrent state, and pads the state to the page</source>
        <translation>一层的一个块；%1 会增大块大小直到一页能容纳一个循环状态，并把状态填充到页大小</translation>
    </message>
    <message>
        <source>as %5 allocates it: %1 layers in %2 groups of %3 slots, %4 of them empty; one block spans a page in every slot of a group</source>
        <translation>按 %5 的分配方式：%1 层分成 %2 组，每组 %3 个槽位，其中 %4 个为空；一个块覆盖组内每个槽位的一页</translation>
    </message>
    <message>
        <source>as %3 allocates it: %1 groups of %2 layers; one block spans a page in every layer of a group</source>
        <translation>按 %3 的分配方式：%1 组，每组 %2 层；一个块覆盖组内每层的一页</translation>
    </message>
    <message>
        <source>as %1 allocates it: whole blocks in every layer</source>
        <translation>按 %1 的分配方式：每层都按整块分配</translation>
    </message>
    <message>
        <source>requests of %1 tokens the token pool holds at once</source>
        <translation>token 池可同时容纳的 %1 长度请求数</translation>
    </message>
    <message>
        <source>what vLLM uses: everything before the KV cache and the cache as given</source>
        <translation>vLLM 使用的显存：KV Cache 之前的一切加上给定的 KV Cache</translation>
    </message>
    <message>
        <source>the KV cache&apos;s memory as given: vLLM skips its profiled budget</source>
        <translation>按给定值的 KV Cache 显存：vLLM 跳过其剖析得出的预算</translation>
    </message>
    <message>
        <source>tokens kept in host memory for reuse; not more sequences at once</source>
        <translation>存于主机内存以供复用的 token；并不增加同时运行的序列</translation>
    </message>
    <message>
        <source>1 + a + … + a^k: the accepted drafts and the model&apos;s own token, each draft accepted with probability a</source>
        <translation>1 + a + … + a^k：被接受的草稿加上主模型自己的 token，每个草稿被接受的概率为 a</translation>
    </message>
    <message>
        <source>a step with the drafter: the model verifies, the drafter proposes</source>
        <translation>使用草稿模型的一步：主模型验证，草稿模型提议</translation>
    </message>
    <message>
        <source>the tokens all sequences receive per second with the drafter</source>
        <translation>使用草稿模型时所有序列每秒得到的 token 数</translation>
    </message>
    <message>
        <source>the prefix cache supplies the shared prefix: the prefill computes the rest, attending to all</source>
        <translation>共享前缀由前缀缓存提供：预填充只计算其余 token，并对全部 token 做注意力</translation>
    </message>
    <message>
        <source>a %1-token prompt alone, %2 of its tokens computed: the same terms, priced for the prefill</source>
        <translation>单独一条 %1 token 的提示词，其中计算 %2 个 token：同样的各项，按预填充计价</translation>
    </message>
    <message>
        <source>the deployment&apos;s tokens: every data-parallel rank&apos;s own cache</source>
        <translation>整个部署的 token 数：每个数据并行副本各自的缓存之和</translation>
    </message>
    <message>
        <source>the vision tower encodes each image before the prompt&apos;s tokens run: its linears once per patch, its attention per pair of patches an image (or window, or tile) holds</source>
        <translation>视觉编码器在提示词的 token 计算之前先编码每张图像：线性层每个 patch 计算一次，注意力按一张图像（或窗口、图块）内的每对 patch 计算</translation>
    </message>
    <message>
        <source>data-parallel ranks: each MoE layer gathers every rank&apos;s tokens to the GPUs of their experts and sends the results back</source>
        <translation>数据并行 rank：每个 MoE 层把各 rank 的 token 汇集到其专家所在的 GPU，再把结果送回</translation>
    </message>
    <message>
        <source>attention groups: each layer gathers every group&apos;s tokens to its MLP, split over all the GPUs, and scatters the results back</source>
        <translation>注意力组：每层把各组的 token 汇集到切分在全部 GPU 上的 MLP，再把结果分发回去</translation>
    </message>
    <message>
        <source>full-pool tokens a sequence takes up: its tokens, or its window&apos;s over the ratio when SGLang&apos;s window pool fills first</source>
        <translation>一个序列占用的全注意力池 token 数：取其 token 数，或在 SGLang 的窗口池先满时取窗口 token 数除以比例</translation>
    </message>
    <message>
        <source>as SGLang allocates it: a full pool and a window pool of its tokens × the ratio, one cell_size a full-pool token</source>
        <translation>按 SGLang 的分配方式：一个全注意力池，加一个容量为其 token 数 × 比例的窗口池，每个全注意力池 token 占一个 cell_size</translation>
    </message>
    <message>
        <source>tokens of SGLang&apos;s full pool: int(available // cell_size)</source>
        <translation>SGLang 全注意力池的 token 数：int(available // cell_size)</translation>
    </message>
    <message>
        <source>SGLang&apos;s window pool: int(full tokens × swa_full_tokens_ratio)</source>
        <translation>SGLang 的窗口池：int(全注意力池 token 数 × swa_full_tokens_ratio)</translation>
    </message>
    <message>
        <source>requests&apos; recurrent states in SGLang&apos;s state pool</source>
        <translation>SGLang 状态池中可容纳的请求循环状态数</translation>
    </message>
    <message>
        <source>the state pool, sized before the KV pool</source>
        <translation>状态池，先于 KV 池划定大小</translation>
    </message>
    <message>
        <source>pipeline stages: each hands its tokens&apos; hidden states to the next</source>
        <translation>流水线级：每一级把其 token 的隐藏状态交给下一级</translation>
    </message>
    <message>
        <source>pipeline stages: a batch&apos;s next step waits until the busiest stage has run every batch in flight</source>
        <translation>流水线级：一个批次的下一步要等最忙的那一级把所有在途批次都跑完</translation>
    </message>
</context>
<context>
    <name>kvscope::FormulaPanel</name>
    <message>
        <source>%1, from the line above</source>
        <translation>%1，来自上一行</translation>
    </message>
    <message>
        <source>%1, set by %2</source>
        <translation>%1，由 %2 设置</translation>
    </message>
    <message>
        <source>%1, set by %2 (%3)</source>
        <translation>%1，由 %2 设置（%3）</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy formulas</source>
        <translation>复制公式</translation>
    </message>
    <message>
        <source>Copy the launch line and every formula as text.</source>
        <translation>把启动命令和全部公式复制为文本。</translation>
    </message>
    <message>
        <source>Each value names the option it comes from; hover it to find that control.</source>
        <translation>每个数值都标明它来自哪个选项；鼠标悬停即可找到对应的控件。</translation>
    </message>
    <message>
        <source>Speed: one decode step, then the first token</source>
        <translation>速度：一个解码步，然后是首个 token</translation>
    </message>
    <message>
        <source>%1&apos;s budget and capacity</source>
        <translation>%1 的预算与容量</translation>
    </message>
    <message>
        <source>%1 launch line</source>
        <translation>%1 启动命令</translation>
    </message>
    <message>
        <source>The command that starts %1 on this scenario: the flags whose values differ from its defaults.</source>
        <translation>以本场景启动 %1 的命令：只列出取值不同于其默认值的参数。</translation>
    </message>
    <message>
        <source>Copy the %1 command.</source>
        <translation>复制 %1 启动命令。</translation>
    </message>
</context>
<context>
    <name>kvscope::GpuSupport</name>
    <message>
        <source>%1 refuses %2 %3 on the %4: its loader needs compute capability %5 or later, the %4 has %6</source>
        <translation>%1 在 %4 上拒绝 %2 %3：其加载器需要计算能力 %5 或更高，%4 只有 %6</translation>
    </message>
    <message>
        <source>vLLM refuses %1 bfloat16 on the %2: bfloat16 needs compute capability 8.0 or later, the %2 has %3 (%1 float16 runs)</source>
        <translation>vLLM 在 %2 上拒绝 %1 bfloat16：bfloat16 需要计算能力 8.0 或更高，%2 只有 %3（%1 float16 可以运行）</translation>
    </message>
    <message>
        <source>vLLM refuses %1 %2 on the %3: no attention backend takes an FP8 KV cache below compute capability %4, the %3 has %5</source>
        <translation>vLLM 在 %3 上拒绝 %1 %2：计算能力低于 %4 时没有注意力后端支持 FP8 KV cache，%3 只有 %5</translation>
    </message>
    <message>
        <source>vLLM refuses %1 nvfp4 on the %2: its NVFP4 cache kernels are built for Blackwell GPUs (compute capability 10.x and 12.x) only</source>
        <translation>vLLM 在 %2 上拒绝 %1 nvfp4：它的 NVFP4 缓存内核只为 Blackwell GPU（计算能力 10.x 与 12.x）编译</translation>
    </message>
    <message>
        <source>vLLM refuses %1 nvfp4 for heads of %2 values: NVFP4 packs whole groups of 16</source>
        <translation>vLLM 拒绝对每头 %2 个值的模型使用 %1 nvfp4：NVFP4 只能打包完整的 16 值分组</translation>
    </message>
    <message>
        <source>SGLang refuses %1 %2 on the %3: its FP4 caches run on NVIDIA GPUs only (&quot;KV4 is not tested on non-CUDA platforms&quot;)</source>
        <translation>SGLang 拒绝在 %3 上使用 %1 %2：其 FP4 缓存只在 NVIDIA GPU 上运行（&quot;KV4 is not tested on non-CUDA platforms&quot;）</translation>
    </message>
    <message>
        <source>SGLang refuses %1 nvfp4 on the %2: it requires Blackwell SM100 or SM120 (compute capability 10.x or 12.x); fp4_mx_block16 is its FP4 cache for other NVIDIA GPUs</source>
        <translation>SGLang 拒绝在 %2 上使用 %1 nvfp4：它需要 Blackwell SM100 或 SM120（计算能力 10.x 或 12.x）；其他 NVIDIA GPU 上的 FP4 缓存是 fp4_mx_block16</translation>
    </message>
</context>
<context>
    <name>kvscope::GroupInspector</name>
    <message>
        <source>INT group inspector</source>
        <translation>INT 分组查看器</translation>
    </message>
    <message>
        <source>column</source>
        <translation>列</translation>
    </message>
    <message>
        <source>w</source>
        <translation>w</translation>
    </message>
    <message>
        <source>q</source>
        <translation>q</translation>
    </message>
    <message>
        <source>w′</source>
        <translation>w′</translation>
    </message>
    <message>
        <source>row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>group</source>
        <translation>组</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Run a simulation to inspect a group.</source>
        <translation>运行一次模拟后即可查看分组。</translation>
    </message>
    <message>
        <source>Columns %1–%2: min %3, max %4</source>
        <translation>第 %1–%2 列：最小 %3，最大 %4</translation>
    </message>
    <message>
        <source>scale s = (max − min) / %1 = %2</source>
        <translation>scale s = (max − min) / %1 = %2</translation>
    </message>
    <message>
        <source>zero point z = clamp(−round(min / s), 0, %1) = %2</source>
        <translation>zero point z = clamp(−round(min / s), 0, %1) = %2</translation>
    </message>
    <message>
        <source>scale s = 2·max(|min|, |max|) / %1 = %2</source>
        <translation>scale s = 2·max(|min|, |max|) / %1 = %2</translation>
    </message>
    <message>
        <source>zero point z = 2^(bits − 1) = %1 (symmetric)</source>
        <translation>zero point z = 2^(bits − 1) = %1（对称）</translation>
    </message>
    <message>
        <source>scale s = max(|min|, |max|) / 127 = %1</source>
        <translation>scale s = max(|min|, |max|) / 127 = %1</translation>
    </message>
    <message>
        <source>zero point z = 0 (symmetric)</source>
        <translation>zero point z = 0（对称）</translation>
    </message>
    <message>
        <source>w = %1 → q = clamp(round(w / s) + z, %2, %3) = %4</source>
        <translation>w = %1 → q = clamp(round(w / s) + z, %2, %3) = %4</translation>
    </message>
    <message>
        <source>w′ = %1</source>
        <translation>w′ = %1</translation>
    </message>
</context>
<context>
    <name>kvscope::GroupedComboBox</name>
    <message>
        <source>Search…</source>
        <translation>搜索…</translation>
    </message>
</context>
<context>
    <name>kvscope::GrowthChartView</name>
    <message>
        <source>fits at any length (every layer slides)</source>
        <translation>任意长度都放得下（所有层都是滑动窗口）</translation>
    </message>
    <message>
        <source>does not fit even one token</source>
        <translation>一个 token 也放不下</translation>
    </message>
    <message>
        <source>does not fit even one sequence</source>
        <translation>一条序列也放不下</translation>
    </message>
    <message>
        <source>fits up to %1 tokens</source>
        <translation>最多放得下 %1 个 token</translation>
    </message>
    <message>
        <source>fits up to %1 sequences</source>
        <translation>最多放得下 %1 条序列</translation>
    </message>
    <message>
        <source>Memory per GPU vs sequence length (batch %1)</source>
        <translation>每块 GPU 的显存随序列长度变化（Batch %1）</translation>
    </message>
    <message>
        <source>Memory per GPU vs batch size (%1 tokens each)</source>
        <translation>每块 GPU 的显存随 Batch 大小变化（每条 %1 个 token）</translation>
    </message>
    <message>
        <source>Sequence length (tokens, log scale)</source>
        <translation>序列长度（token，对数刻度）</translation>
    </message>
    <message>
        <source>Batch size (sequences, log scale)</source>
        <translation>Batch 大小（序列数，对数刻度）</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>KV cache %1</source>
        <translation>KV Cache %1</translation>
    </message>
    <message>
        <source>%1 (current)</source>
        <translation>%1（当前）</translation>
    </message>
    <message>
        <source>Total, KV %1</source>
        <translation>总计，KV %1</translation>
    </message>
    <message>
        <source>Budget %1</source>
        <translation>预算 %1</translation>
    </message>
    <message>
        <source>%1 tokens: %2</source>
        <translation>%1 个 token：%2</translation>
    </message>
    <message>
        <source>batch %1: %2</source>
        <translation>Batch %1：%2</translation>
    </message>
    <message>
        <source>Sequence length (tokens)</source>
        <translation>序列长度（token）</translation>
    </message>
    <message>
        <source>Batch size (sequences)</source>
        <translation>批次大小（序列数）</translation>
    </message>
    <message>
        <source>KV %1 as if MHA (%2 KV heads)</source>
        <translation>KV %1，假设 MHA（%2 个 KV 头）</translation>
    </message>
    <message>
        <source>KV %1 as if every layer full (%2 layers, no window or state)</source>
        <translation>KV %1，假设每层都是全注意力（%2 层，无窗口或状态）</translation>
    </message>
</context>
<context>
    <name>kvscope::ImageWorkload</name>
    <message>
        <source>%1: %2 is more than %3 images</source>
        <translation>%1：%2 超过 %3 张图像</translation>
    </message>
    <message>
        <source>%1: %2 takes no images (its config.json has no vision tower)</source>
        <translation>%1：%2 不接受图像（其 config.json 没有视觉塔）</translation>
    </message>
</context>
<context>
    <name>kvscope::LaunchCaveats</name>
    <message>
        <source>vLLM reads GGUF files experimentally; add %1 with the original model&apos;s repo id</source>
        <translation>vLLM 对 GGUF 文件的支持是实验性的；请加上 %1 并指定原模型的仓库 ID</translation>
    </message>
    <message>
        <source>%1 has no HuggingFace repo id or folder; replace it with one</source>
        <translation>%1 没有 HuggingFace 仓库 ID 或文件夹；请替换为其中之一</translation>
    </message>
    <message>
        <source>vLLM has no %1 none: serve an unquantized checkpoint of the model</source>
        <translation>vLLM 没有 %1 none：请使用该模型的未量化检查点</translation>
    </message>
    <message>
        <source>vLLM has no %2 %1: it loads such weights from a checkpoint stored that way (compressed-tensors)</source>
        <translation>vLLM 没有 %2 %1：这类权重只能从以该格式存储的检查点加载（compressed-tensors）</translation>
    </message>
    <message>
        <source>the group size and scale layout come from the checkpoint&apos;s quantization_config, not from a flag</source>
        <translation>分组大小和 scale 布局来自检查点的 quantization_config，而不是命令行参数</translation>
    </message>
    <message>
        <source>vLLM&apos;s %1 has no float32: the cache is float32 only with %2 float32 and %1 auto</source>
        <translation>vLLM 的 %1 没有 float32：只有在 %2 float32 且 %1 auto 时缓存才是 float32</translation>
    </message>
    <message>
        <source>%1 is a llama.cpp cache type (llama-server %2/-v), not a vLLM one</source>
        <translation>%1 是 llama.cpp 的缓存类型（llama-server %2/-v），不是 vLLM 的</translation>
    </message>
    <message>
        <source>SGLang has no %2 %1: serve a checkpoint stored that way</source>
        <translation>SGLang 没有 %2 %1：请部署以这种格式存储的检查点</translation>
    </message>
    <message>
        <source>%1 is not stored as %2 and the engine does not quantize to %2 while loading: replace the placeholder with a checkpoint of the model stored as %2</source>
        <translation>%1 不是以 %2 存储的，引擎加载时也不会量化为 %2：请把占位符换成该模型以 %2 存储的 checkpoint</translation>
    </message>
    <message>
        <source>&lt;%1 checkpoint of %2&gt;</source>
        <translation>&lt;%2 的 %1 checkpoint&gt;</translation>
    </message>
    <message>
        <source>SGLang&apos;s %2 has no %1: its cache takes the model&apos;s dtype (auto), an FP8 or an FP4 format</source>
        <translation>SGLang 的 %2 没有 %1：其缓存使用模型的 dtype（auto）、FP8 或 FP4 格式</translation>
    </message>
    <message>
        <source>vLLM %1 takes the all-to-all backend from the environment (VLLM_ALL2ALL_BACKEND=%2), not from %3, which came in 0.11.1</source>
        <translation>vLLM %1 从环境变量（VLLM_ALL2ALL_BACKEND=%2）读取 all-to-all 后端，而不是 %3（该参数在 0.11.1 才加入）</translation>
    </message>
    <message>
        <source>%1 is stored as %3, which the engine does not convert to %2: replace the placeholder with a checkpoint of the model stored as %2</source>
        <translation>%1 以 %3 存储，引擎不会把它转换为 %2：请把占位符换成该模型以 %2 存储的 checkpoint</translation>
    </message>
</context>
<context>
    <name>kvscope::Library</name>
    <message>
        <source>%1&apos;s config.json has max_position_embeddings %2 (the preset&apos;s %3): planned with %2</source>
        <translation>%1 的 config.json 中 max_position_embeddings 为 %2（预设为 %3）：按 %2 规划</translation>
    </message>
    <message>
        <source>%1: no model given</source>
        <translation>%1：未给出模型</translation>
    </message>
    <message>
        <source>%1: unknown model &apos;%2&apos;: not a preset id, a HuggingFace repo id of a preset, or an existing config.json, model folder or .gguf file (run &apos;kvscope models&apos; for the list)</source>
        <translation>%1：未知模型“%2”：既不是预设 id、预设的 HuggingFace 仓库 id，也不是存在的 config.json、模型文件夹或 .gguf 文件（运行 &apos;kvscope models&apos; 查看列表）</translation>
    </message>
    <message>
        <source>%1: unknown draft model &apos;%2&apos;: not a draft preset (%3), a model preset or an existing config.json or model folder</source>
        <translation>%1：未知草稿模型“%2”：既不是草稿预设（%3）、模型预设，也不是存在的 config.json 或模型文件夹</translation>
    </message>
    <message>
        <source>%1: unknown GPU &apos;%2&apos; (run &apos;kvscope gpus&apos; for the list; PRESET:MEMORY_GIB gives a preset its host&apos;s memory)</source>
        <translation>%1：未知 GPU“%2”（运行 &apos;kvscope gpus&apos; 查看列表；PRESET:MEMORY_GIB 给预设指定其主机上的显存）</translation>
    </message>
</context>
<context>
    <name>kvscope::LogExplanationText</name>
    <message>
        <source>  differs</source>
        <translation>  不一致</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Engine starts</source>
        <translation>引擎能否启动</translation>
    </message>
    <message>
        <source>Read from %1</source>
        <translation>从 %1 读取</translation>
    </message>
    <message>
        <source>Assumed</source>
        <translation>假设</translation>
    </message>
    <message>
        <source>Planned as: kvscope calc %1</source>
        <translation>按此规划：kvscope calc %1</translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation>每块 GPU</translation>
    </message>
    <message>
        <source>logged</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>difference</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>KV cache tokens</source>
        <translation>KV Cache token 数</translation>
    </message>
    <message>
        <source>Maximum concurrency</source>
        <translation>最大并发</translation>
    </message>
    <message>
        <source>Why the KV cache has this size</source>
        <translation>KV Cache 为何是这个大小</translation>
    </message>
    <message>
        <source>%1: %2 tokens (×%3)</source>
        <translation>%1：%2 个 token（×%3）</translation>
    </message>
    <message>
        <source>To hold more</source>
        <translation>如何容纳更多</translation>
    </message>
    <message>
        <source>Requests at once (max_running_requests)</source>
        <translation>同时运行的请求数（max_running_requests）</translation>
    </message>
</context>
<context>
    <name>kvscope::LogExplanationWords</name>
    <message>
        <source>a restart that keeps vLLM&apos;s compile cache</source>
        <translation>保留 vLLM 编译缓存的重启</translation>
    </message>
    <message>
        <source>compile cache warm: the compiled model loaded from it (%1)</source>
        <translation>编译缓存为热：已编译的模型从中加载（%1）</translation>
    </message>
    <message>
        <source>compile cache cold: the start compiled the model (%1)</source>
        <translation>编译缓存为冷：这次启动编译了模型（%1）</translation>
    </message>
    <message>
        <source> On Model Runner V2 with the compile cache warm kvscope plans V2&apos;s own peak: the larger of the forward pass over %1 tokens and the sampler&apos;s logits with their float32 copy. The warm logs measured agree with it and the memory outside PyTorch together, not one by one (validation logs 136 and 138).</source>
        <translation>在 Model Runner V2 上、编译缓存已就绪时，kvscope 规划 V2 自身的峰值：对 %1 个 token 的前向传播与采样器的 logits 连同其 float32 副本两者中较大者。实测的热启动日志与它和 PyTorch 之外的显存之和相符，但不是逐项相符（验证日志 136 和 138）。</translation>
    </message>
    <message>
        <source>The log shows vLLM failing to start after it sized the KV cache (%1): %2.</source>
        <translation>日志显示 vLLM 在确定 KV Cache 大小之后启动失败（%1）：%2。</translation>
    </message>
    <message>
        <source>The log shows vLLM failing to start (%1): %2.</source>
        <translation>日志显示 vLLM 启动失败（%1）：%2。</translation>
    </message>
    <message>
        <source>It asked for %1 with %2 of the GPU free</source>
        <translation>它申请 %1 时 GPU 只剩 %2 空闲</translation>
    </message>
    <message>
        <source>, while PyTorch&apos;s allocator held %1 reserved but unallocated</source>
        <translation>，而 PyTorch 的分配器还保留着 %1 已预留但未分配的显存</translation>
    </message>
    <message>
        <source>That is the sampler&apos;s float32 logits for the warm-up&apos;s requests (%1) over the model&apos;s vocabulary: %2 × %3 × 4 B = %4.</source>
        <translation>这正是采样器预热时为各请求（%1）在整个词表上分配的 float32 logits：%2 × %3 × 4 B = %4。</translation>
    </message>
    <message>
        <source>the sampler&apos;s warm-up</source>
        <translation>采样器预热</translation>
    </message>
    <message>
        <source>the CUDA graphs, %1 GiB here, and the sampler&apos;s warm-up</source>
        <translation>CUDA Graph（此处 %1 GiB）和采样器预热</translation>
    </message>
    <message>
        <source>, %1 GiB of which were in use when vLLM started</source>
        <translation>，其中 %1 GiB 在 vLLM 启动时已被占用</translation>
    </message>
    <message>
        <source>vLLM sizes the KV cache to fill its budget (%1 GiB × %2) beside the weights and the profiling run&apos;s peak; what it allocates after that (%3) must fit in the %4 GiB the budget leaves outside it%5.</source>
        <translation>vLLM 让 KV Cache 与权重和剖析运行的峰值一起填满预算（%1 GiB × %2）；此后再分配的（%3）必须放进预算之外剩下的 %4 GiB%5。</translation>
    </message>
    <message>
        <source>Lower %1 (the sampler warms up with that many requests) or %2, as vLLM advises.</source>
        <translation>按 vLLM 的建议调低 %1（采样器按这么多请求预热）或 %2。</translation>
    </message>
    <message>
        <source>Lower %1.</source>
        <translation>调低 %1。</translation>
    </message>
    <message>
        <source> kvscope plans the KV cache as vLLM sizes it, not what vLLM allocates afterwards, so its plan of this start says it fits.</source>
        <translation>kvscope 按 vLLM 的方式规划 KV Cache，但不规划 vLLM 之后的分配，所以它对这次启动的规划显示放得下。</translation>
    </message>
    <message>
        <source>line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <source>model %1: given with %2</source>
        <translation>模型 %1：由 %2 指定</translation>
    </message>
    <message>
        <source>the log names no model (no &apos;non-default args&apos;, &apos;vllm serve&apos; or engine config line); give %1</source>
        <translation>日志中没有模型名（没有 &apos;non-default args&apos;、&apos;vllm serve&apos; 或引擎配置行）；请用 %1 指定</translation>
    </message>
    <message>
        <source>GPU %1: given with %2</source>
        <translation>GPU %1：由 %2 指定</translation>
    </message>
    <message>
        <source>the log does not print the GPU&apos;s memory (vLLM&apos;s &apos;worker init memory snapshot&apos; is a DEBUG line: VLLM_LOGGING_LEVEL=DEBUG); give %1</source>
        <translation>日志没有打印 GPU 显存（vLLM 的 &apos;worker init memory snapshot&apos; 是 DEBUG 级别的行：VLLM_LOGGING_LEVEL=DEBUG）；请用 %1 指定</translation>
    </message>
    <message>
        <source>GPU = %1: the one preset with total_memory=%2GiB</source>
        <translation>GPU = %1：唯一 total_memory=%2GiB 的预设</translation>
    </message>
    <message>
        <source>GPU %1: the first preset with total_memory=%2GiB (also %3); give %4 for another</source>
        <translation>GPU %1：第一个 total_memory=%2GiB 的预设（还有 %3）；要用其他 GPU 请指定 %4</translation>
    </message>
    <message>
        <source>vLLM version &apos;%1&apos; is not a release number</source>
        <translation>vLLM 版本 &apos;%1&apos; 不是发布版本号</translation>
    </message>
    <message>
        <source>vLLM %1: kvscope plans the V1 engine&apos;s accounting, from %2 on</source>
        <translation>vLLM %1：kvscope 规划的是 V1 引擎的显存核算，从 %2 起</translation>
    </message>
    <message>
        <source>vLLM %1 (%2)</source>
        <translation>vLLM %1（%2）</translation>
    </message>
    <message>
        <source>%1 = %2 (%3)</source>
        <translation>%1 = %2（%3）</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Activation peak of the profiling run</source>
        <translation>性能剖析运行的激活峰值</translation>
    </message>
    <message>
        <source>Peak + outside PyTorch + graphs (derived)</source>
        <translation>峰值 + PyTorch 之外的显存 + CUDA graph（推算）</translation>
    </message>
    <message>
        <source>Activation peak + outside PyTorch (derived)</source>
        <translation>激活峰值 + PyTorch 之外的显存（推算）</translation>
    </message>
    <message>
        <source>%1: the budget (%2) less the weights and the KV cache the log prints leaves %3 GiB, where kvscope plans %4.</source>
        <translation>%1：预算（%2）减去日志给出的权重和 KV Cache 后剩余 %3 GiB，kvscope 规划为 %4。</translation>
    </message>
    <message>
        <source>Memory outside PyTorch (CUDA context, NCCL)</source>
        <translation>PyTorch 之外的显存（CUDA 上下文、NCCL）</translation>
    </message>
    <message>
        <source>CUDA-graph estimate</source>
        <translation>CUDA graph 估计</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV Cache</translation>
    </message>
    <message>
        <source> and the CUDA-graph estimate (%1)</source>
        <translation>以及 CUDA graph 估计（%1）</translation>
    </message>
    <message>
        <source>vLLM gives the engine %1 × %2 = %3 of each GPU (%9) and sizes the KV cache from what the weights (%4), the profiling run&apos;s activation peak (%5), memory outside PyTorch (%6)%7 leave: %8.</source>
        <translation>vLLM 给引擎每块 GPU（%9）的 %1 × %2 = %3，并用权重（%4）、性能剖析运行的激活峰值（%5）、PyTorch 之外的显存（%6）%7 之后剩下的部分确定 KV Cache 大小：%8。</translation>
    </message>
    <message>
        <source>%1 blocks of %2 tokens: %3 tokens, %4 requests of %6 %5 at once</source>
        <translation>%1 个块、每块 %2 个 token：共 %3 个 token，可同时容纳 %4 个 %6 %5 的请求</translation>
    </message>
    <message>
        <source>A token of context takes %1 of KV cache on each GPU, so that memory holds %2.</source>
        <translation>每个上下文 token 在每块 GPU 上占用 %1 的 KV Cache，因此这部分显存可容纳 %2。</translation>
    </message>
    <message>
        <source>That memory holds %1.</source>
        <translation>这部分显存可容纳 %1。</translation>
    </message>
    <message>
        <source>vLLM %1 does not take the CUDA graphs&apos; memory (estimated %2) out of the budget; from vLLM 0.21 on it does, and the KV cache is smaller by that much.</source>
        <translation>vLLM %1 不会从预算中扣除 CUDA graph 的显存（估计 %2）；从 vLLM 0.21 起会扣除，KV Cache 相应减小这么多。</translation>
    </message>
    <message>
        <source>vLLM does not start: %1</source>
        <translation>vLLM 无法启动：%1</translation>
    </message>
    <message>
        <source>The log shows vLLM refusing to start: %1</source>
        <translation>日志显示 vLLM 拒绝启动：%1</translation>
    </message>
    <message>
        <source>%1 differs by more than kvscope is validated to (%2 %): the log says %3 GiB, kvscope plans %4.</source>
        <translation>%1的差异超出了 kvscope 的验证范围（%2 %）：日志为 %3 GiB，kvscope 规划为 %4。</translation>
    </message>
    <message>
        <source> This release does not subtract it, so the KV cache does not depend on it.</source>
        <translation> 此版本不扣除这部分，因此 KV Cache 与它无关。</translation>
    </message>
    <message>
        <source>more of the GPU for vLLM</source>
        <translation>给 vLLM 更多 GPU 显存</translation>
    </message>
    <message>
        <source>an FP8 KV cache</source>
        <translation>FP8 KV Cache</translation>
    </message>
    <message>
        <source>FP8 weights</source>
        <translation>FP8 权重</translation>
    </message>
    <message>
        <source>twice the GPUs</source>
        <translation>两倍的 GPU</translation>
    </message>
    <message>
        <source>%1 %2 (%3)</source>
        <translation>%1 %2（%3）</translation>
    </message>
    <message>
        <source>model %1: the repository of the HuggingFace cache folder</source>
        <translation>模型 %1：HuggingFace 缓存文件夹对应的仓库</translation>
    </message>
    <message>
        <source>SGLang version: kvscope plans the token pool as profile_max_num_token computes it in current releases (python/sglang/srt/model_executor/model_runner.py)</source>
        <translation>SGLang 版本：kvscope 按当前版本中 profile_max_num_token 的算法规划 token 池（python/sglang/srt/model_executor/model_runner.py）</translation>
    </message>
    <message>
        <source>mem_fraction_static: not in the log; SGLang&apos;s default for this GPU and tp_size (python/sglang/srt/server_args.py)</source>
        <translation>mem_fraction_static：日志中没有；取 SGLang 针对该 GPU 和 tp_size 的默认值（python/sglang/srt/server_args.py）</translation>
    </message>
    <message>
        <source>context_length: not in the log; the model&apos;s own (max_position_embeddings)</source>
        <translation>context_length：日志中没有；取模型自身的值（max_position_embeddings）</translation>
    </message>
    <message>
        <source>the log names no model (no server_args or launch_server line with %2); give %1</source>
        <translation>日志中没有模型（没有 server_args 行，也没有带 %2 的 launch_server 行）；请用 %1 指定</translation>
    </message>
    <message>
        <source>tp_size %1: from the TP0 to TP%2 prefixes</source>
        <translation>tp_size %1：来自 TP0 到 TP%2 的前缀</translation>
    </message>
    <message>
        <source>the log does not print the memory free when the weights load (SGLang&apos;s &apos;Load weight begin. avail mem&apos; line); give %1</source>
        <translation>日志没有打印加载权重时的空闲显存（SGLang 的“Load weight begin. avail mem”行）；请用 %1 指定</translation>
    </message>
    <message>
        <source>%1 GiB free when the weights load matches no GPU preset; give %2 (a preset, or custom:&lt;GiB&gt; for this memory)</source>
        <translation>加载权重时空闲 %1 GiB，与所有 GPU 预设都不符；请用 %2 指定（预设，或按此显存写 custom:&lt;GiB&gt;）</translation>
    </message>
    <message>
        <source>GPU %1: SGLang does not print the GPU; the preset whose memory less the %2 in use before the weights is nearest to the %3 GiB free when they load</source>
        <translation>GPU %1：SGLang 不打印 GPU 型号；取显存减去加载权重前已占用的 %2 后，最接近加载权重时空闲的 %3 GiB 的预设</translation>
    </message>
    <message>
        <source>%1 (also %2); give %3 for another</source>
        <translation>%1（也可能是 %2）；如为其他 GPU 请用 %3 指定</translation>
    </message>
    <message>
        <source>Free when the weights load (SGLang&apos;s total)</source>
        <translation>加载权重时的空闲显存（SGLang 的总量）</translation>
    </message>
    <message>
        <source>KV cache (token pool)</source>
        <translation>KV Cache（token 池）</translation>
    </message>
    <message>
        <source>SGLang keeps %1 × %2 = %3 of the memory free when the weights load (%4 %5) for the weights and its token pool, and leaves the rest for activations and CUDA graphs. The weights take %6, which leaves %7 for the pool.</source>
        <translation>SGLang 把加载权重时空闲显存的 %1 × %2 = %3（%4 %5）留给权重和 token 池，其余留给激活和 CUDA 图。权重占 %6，剩下 %7 给 token 池。</translation>
    </message>
    <message>
        <source>A token of context takes %1 of the pool on each GPU, so it holds %2 tokens; with %3 %4 SGLang runs at most %5 requests at once (%6).</source>
        <translation>每个上下文 token 在每块 GPU 上占 token 池 %1，因此池中可容纳 %2 个 token；在 %3 %4 下，SGLang 最多同时运行 %5 个请求（%6）。</translation>
    </message>
    <message>
        <source>Its CUDA graphs took %1 GiB of the rest (logged); raising %2 leaves less for them and for the activations of a prefill chunk.</source>
        <translation>它的 CUDA 图占用了其余部分中的 %1 GiB（日志记录）；调高 %2 会让留给 CUDA 图和一个预填充分块激活的显存变少。</translation>
    </message>
    <message>
        <source>SGLang does not start: %1</source>
        <translation>SGLang 无法启动：%1</translation>
    </message>
    <message>
        <source>a larger static share for SGLang</source>
        <translation>更大的 SGLang 静态显存比例</translation>
    </message>
    <message>
        <source>%1 %2: from the %3%4 to %3%5 prefixes</source>
        <translation>%1 %2：由 %3%4 至 %3%5 前缀推得</translation>
    </message>
    <message>
        <source>Each of the %1 pipeline stages sizes a cache for its own layers (blocks: %2); vLLM gives every stage the fewest, stage %3&apos;s. The log&apos;s per-GPU lines are the first stage&apos;s.</source>
        <translation>%1 个流水线级各自按自己的层计算 KV Cache（块数：%2）；vLLM 让每一级都取最少的那个，即第 %3 级的。日志中每块 GPU 的数字是第一级的。</translation>
    </message>
    <message>
        <source>speculative_config (%1): %2; the drafter&apos;s weights and KV layers are not planned</source>
        <translation>speculative_config（%1）：%2；未规划草稿模型的权重和 KV 层</translation>
    </message>
    <message>
        <source>speculative_config = %1 (%2)</source>
        <translation>speculative_config = %1（%2）</translation>
    </message>
    <message>
        <source>%1; the drafter&apos;s weights and KV layers are not planned</source>
        <translation>%1；未规划草稿模型的权重和 KV 层</translation>
    </message>
    <message>
        <source>a pipeline&apos;s stages hold different memory; its log cannot calibrate one figure per GPU</source>
        <translation>流水线各阶段占用的显存不同；其日志无法校准每块 GPU 的单一数值</translation>
    </message>
    <message>
        <source>vLLM version: not in the log; planned as the newest modelled release (%1); give %2 for another</source>
        <translation>vLLM 版本：日志中没有；按已建模的最新版本（%1）规划；其他版本请用 %2 指定</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not a release number (x.y)</source>
        <translation>%1：“%2”不是版本号（x.y）</translation>
    </message>
    <message>
        <source>vLLM %1: given with %2</source>
        <translation>vLLM %1：由 %2 指定</translation>
    </message>
    <message>
        <source>%1 %2: %3 is an SGLang start-up log, and the option names a vLLM release</source>
        <translation>%1 %2：%3 是 SGLang 的启动日志，而该选项指定的是 vLLM 版本</translation>
    </message>
    <message>
        <source>the log prints none of the weights, the activation peak, the non-torch memory, the CUDA-graph estimate or the memory free when the weights load</source>
        <translation>日志没有打印权重、激活峰值、非 torch 显存、CUDA graph 估计或加载权重时的空闲显存中的任何一项</translation>
    </message>
    <message>
        <source>%1 (%2, %3)</source>
        <translation>%1（%2，%3）</translation>
    </message>
    <message>
        <source> The log says the same: a budget of %1, %2 image(s).</source>
        <translation>日志所示相同：预算 %1，%2 张图像。</translation>
    </message>
    <message>
        <source> The log says otherwise: a budget of %1, %2 image(s).</source>
        <translation>日志所示不同：预算 %1，%2 张图像。</translation>
    </message>
    <message>
        <source>The profiling run first encodes %1 image(s) of the largest size (the encoder cache&apos;s budget: %2 outputs) and holds their %3 of outputs in the activation peak.%4</source>
        <translation>剖析运行先编码 %1 张最大尺寸的图像（编码器缓存预算：%2 个输出），并把它们 %3 的输出计入激活峰值。%4</translation>
    </message>
    <message>
        <source>%1 %2 (%3): kvscope does not plan SGLang&apos;s pipeline parallelism yet</source>
        <translation>%1 %2（%3）：kvscope 尚未规划 SGLang 的流水线并行</translation>
    </message>
    <message>
        <source>vLLM %1 logs &quot;GPU KV cache size&quot; as the maximum concurrency × %2: %3 tokens, which counts what each of the %4 KV cache groups holds of a request; releases before 0.21 logged the blocks per group × the block size, %5 tokens.</source>
        <translation>vLLM %1 记录的 “GPU KV cache size” 是最大并发 × %2：%3 个 token，计入了 %4 个 KV Cache 组各自为一个请求保留的部分；0.21 之前的版本记录的是每组块数 × 块大小，%5 个 token。</translation>
    </message>
    <message>
        <source>vLLM %1 logs &quot;GPU KV cache size&quot; as the blocks per group × the block size: %5 tokens over %4 KV cache groups; from 0.21 on it logs the maximum concurrency × %2, %3 tokens, which counts what a windowed group holds of a request.</source>
        <translation>vLLM %1 记录的 “GPU KV cache size” 是每组块数 × 块大小：%4 个 KV Cache 组共 %5 个 token；从 0.21 起改为记录最大并发 × %2，即 %3 个 token，计入了窗口组为一个请求保留的部分。</translation>
    </message>
    <message>
        <source>speculative_algorithm %1 (%2): %3; the drafter is not planned</source>
        <translation>speculative_algorithm %1（%2）：%3；未规划草稿模型</translation>
    </message>
    <message>
        <source>an algorithm kvscope does not plan</source>
        <translation>kvscope 不规划的算法</translation>
    </message>
    <message>
        <source>the log gives no %1</source>
        <translation>日志没有给出 %1</translation>
    </message>
    <message>
        <source>speculative_eagle_topk %1: SGLang drafts a tree; kvscope plans a chain of %2 drafts</source>
        <translation>speculative_eagle_topk %1：SGLang 起草的是一棵树；kvscope 按 %2 个草稿的链规划</translation>
    </message>
    <message>
        <source>speculative_algorithm %1 (%2): %3 %4</source>
        <translation>speculative_algorithm %1（%2）：%3 %4</translation>
    </message>
    <message>
        <source>gpu_memory_utilization: not in the log; the release&apos;s default (0.92 from vLLM 0.21, 0.9 before)</source>
        <translation>gpu_memory_utilization：日志中没有；取该版本的默认值（vLLM 0.21 起为 0.92，之前为 0.9）</translation>
    </message>
    <message>
        <source>gpu_memory_utilization = %1 (%2: the current one, which vLLM&apos;s advice beside its CUDA-graph estimate names)</source>
        <translation>gpu_memory_utilization = %1（%2：vLLM 在 CUDA Graph 显存估计旁的建议中给出的当前值）</translation>
    </message>
    <message>
        <source>eplb_config (%1): &apos;%2&apos; is not a settings object kvscope reads; planned with vLLM&apos;s defaults</source>
        <translation>eplb_config（%1）：“%2”不是 kvscope 能读取的设置对象；按 vLLM 的默认值规划</translation>
    </message>
    <message>
        <source>eplb_config = %1 (%2)</source>
        <translation>eplb_config = %1（%2）</translation>
    </message>
    <message>
        <source>eplb_config (%1): %2; planned with vLLM&apos;s defaults</source>
        <translation>eplb_config（%1）：%2；按 vLLM 的默认值规划</translation>
    </message>
    <message>
        <source>vLLM version: not in the log; it takes the CUDA-graph estimate from the budget (%1), as releases from 0.21 do: planned as %2; give %3 for another</source>
        <translation>vLLM 版本：日志中没有；它从预算中扣除了 CUDA Graph 估计值（%1），0.21 起的版本都这样做：按 %2 规划；如是其他版本请用 %3 指定</translation>
    </message>
    <message>
        <source>vLLM version: not in the log; it logs &quot;Estimated CUDA graph memory&quot; (%1) without 0.21&apos;s &quot;CUDA graph memory profiling is enabled&quot;, so a release that keeps the estimate in the KV cache: planned as %2; give %3 for another</source>
        <translation>vLLM 版本：日志中没有；它打印了“Estimated CUDA graph memory”（%1），却没有 0.21 的“CUDA graph memory profiling is enabled”，说明该版本把估计值留在 KV Cache 中：按 %2 规划；如是其他版本请用 %3 指定</translation>
    </message>
    <message>
        <source>Before the token pool SGLang sets aside %1 for %2 requests&apos; recurrent states (its state pool: 0.9 of the memory for every 1 the tokens get, %3 a request)%4.</source>
        <translation>在 token 池之前，SGLang 先留出 %1 存放 %2 个请求的循环状态（状态池：token 每得 1 份显存，状态得 0.9 份；每个请求 %3）%4。</translation>
    </message>
    <message>
        <source>; the log&apos;s max_mamba_cache_size is %1</source>
        <translation>；日志中的 max_mamba_cache_size 为 %1</translation>
    </message>
    <message>
        <source>The window layers keep a pool of their own, %1 tokens for every full one (%2): %3 tokens beside the full pool&apos;s %4%5.</source>
        <translation>窗口层使用单独的池，全注意力池每 1 个 token 对应 %1 个（%2）：全注意力池 %4 个 token 之外另有 %3 个%5。</translation>
    </message>
    <message>
        <source>; the log&apos;s swa_layer_tokens is %1</source>
        <translation>；日志中的 swa_layer_tokens 为 %1</translation>
    </message>
    <message>
        <source>total_memory=%1GiB matches no GPU preset; give %2 (a preset, PRESET:%1 for a preset with this memory, or custom:%1)</source>
        <translation>total_memory=%1GiB 与任何 GPU 预设都不符；请给出 %2（预设、PRESET:%1 表示带此显存的预设，或 custom:%1）</translation>
    </message>
    <message>
        <source>; also near: %1</source>
        <translation>；相近的还有：%1</translation>
    </message>
    <message>
        <source>GPU %1 with the log&apos;s total_memory=%2GiB: the nearest preset, %3 GiB%4; give %5 for another (PRESET:%2 keeps the log&apos;s total)</source>
        <translation>GPU %1，按日志的 total_memory=%2GiB：最接近的预设，%3 GiB%4；如需其他请给出 %5（PRESET:%2 保留日志的总量）</translation>
    </message>
    <message>
        <source>vLLM version: not in the log; it runs the model on Model Runner V2 (%1), which keeps the CUDA graphs in the KV cache from 0.22 to 0.28: planned as %2; give %3 for another</source>
        <translation>vLLM 版本：日志中没有；它在 Model Runner V2 上运行模型（%1），0.22 至 0.28 的 V2 把 CUDA Graph 留在 KV Cache 之内：按 %2 规划；如需其他请给出 %3</translation>
    </message>
    <message>
        <source>vLLM %1 runs this model on its Model Runner V2, which does not take the CUDA graphs&apos; memory (estimated %2 under the V1 runner) out of the budget; from vLLM 0.29 on it does, and the KV cache is smaller by that much.</source>
        <translation>vLLM %1 在其 Model Runner V2 上运行此模型，不从预算中扣除 CUDA Graph 的显存（V1 运行器下估计为 %2）；从 vLLM 0.29 起会扣除，KV Cache 也相应变小。</translation>
    </message>
    <message>
        <source>the log&apos;s %1 is no GPU preset; the GPU follows from its memory</source>
        <translation>日志中的 %1 不是任何 GPU 预设；GPU 由其显存确定</translation>
    </message>
    <message>
        <source>GPU %1: the log&apos;s %2, with the preset&apos;s total memory %3 GiB (the log does not print the GPU&apos;s)</source>
        <translation>GPU %1：日志中的 %2，采用预设的总显存 %3 GiB（日志未打印 GPU 的显存）</translation>
    </message>
    <message>
        <source>GPU = %1: the log&apos;s %2, with its total_memory=%3GiB</source>
        <translation>GPU = %1：日志中的 %2，其 total_memory=%3GiB</translation>
    </message>
    <message>
        <source>GPU = %1: the log&apos;s device_name=%2 (%3)</source>
        <translation>GPU = %1：日志中的 device_name=%2（%3）</translation>
    </message>
    <message>
        <source>GPU %1: the log&apos;s %2, with %3 GiB, the middle of %4</source>
        <translation>GPU %1：日志中的 %2，显存取 %3 GiB，即 %4 的中点</translation>
    </message>
    <message>
        <source>the %1-%2 GiB that the CUDA-graph estimate of %3 GiB and the utilizations %4 / %5 (%6) allow</source>
        <translation>CUDA 图估计 %3 GiB 与利用率 %4 / %5（%6）所允许的 %1–%2 GiB</translation>
    </message>
    <message>
        <source>GPU: the log prints no total memory; %1 hold no preset&apos;s: planned as a custom GPU of %2 GiB, the middle; give %3 for the card</source>
        <translation>GPU：日志未打印总显存；%1 中没有任何预设的显存：按中点 %2 GiB 的自定义 GPU 规划；可用 %3 指定显卡</translation>
    </message>
    <message>
        <source>GPUs on PCIe only (32 GB/s as a custom GPU&apos;s link): the log&apos;s custom all-reduce is disabled (%1)</source>
        <translation>GPU 之间仅有 PCIe（自定义 GPU 的互联按 32 GB/s）：日志显示自定义 all-reduce 已禁用（%1）</translation>
    </message>
    <message>
        <source>GPU = %1: the one preset (%2 GiB) within %3</source>
        <translation>GPU = %1：唯一落在 %3 内的预设（%2 GiB）</translation>
    </message>
    <message>
        <source>GPU %1 (%2 GiB): the preset nearest the middle of %3 (also %4); give %5 for another</source>
        <translation>GPU %1（%2 GiB）：最接近 %3 中点的预设（另有 %4）；可用 %5 指定其他</translation>
    </message>
    <message>
        <source>model %1: the name of the log&apos;s model %2, which is not on this machine; give %3 for its config.json</source>
        <translation>模型 %1：日志中模型 %2 的名称，该模型不在本机；可用 %3 给出它的 config.json</translation>
    </message>
    <message>
        <source>model %1: %2 is a %3 checkpoint of it, for which kvscope has no preset: its quantization_config (bits, group size) is taken as kvscope&apos;s for %3; give %4 with the checkpoint&apos;s config.json for its own</source>
        <translation>模型 %1：%2 是它的 %3 量化检查点，kvscope 没有该检查点的预设：其 quantization_config（位数、分组大小）按 kvscope 对 %3 的默认取值；可用 %4 给出该检查点的 config.json 以用其自身配置</translation>
    </message>
    <message>
        <source>%1 %2: the method the checkpoint&apos;s name implies (the log does not state it)</source>
        <translation>%1 %2：检查点名称所暗示的方法（日志未说明）</translation>
    </message>
    <message>
        <source> vLLM measures it by capturing graphs: the first graph&apos;s memory plus the second&apos;s times the others, here %1 graphs (%2 piecewise up to %3 tokens, %4 full up to %5) over %6 layers a GPU. kvscope counts the graphs the same way (%7 piecewise, %8 full) and prices each by the layers it holds, as fitted on H100 logs (%9 in all): where the counts differ, the log ran other settings than the plan; where they agree, this GPU&apos;s graphs hold more or less than an H100&apos;s (Calibrate from this log keeps the logged estimate).</source>
        <translation> vLLM 通过捕获图来测量它：第一张图的显存，加上第二张图的显存乘以其余图的数量，这里共 %1 张图（%2 张分段图、最多 %3 个 token，%4 张完整图、最多 %5 个），每块 GPU %6 层。kvscope 以同样的方式计数（%7 张分段图、%8 张完整图），并按每张图所含的层数计价（在 H100 日志上拟合，共 %9）：图数不同，说明日志的设置与规划不同；图数相同，则这块 GPU 的图比 H100 的更大或更小（“用此日志校准”会保留日志中的估计）。</translation>
    </message>
    <message>
        <source>The log&apos;s workers run on %1 hosts (%2): the GPUs span nodes. kvscope plans one node&apos;s: its memory outside PyTorch at TP &gt; 1 is that of GPUs on one node, where vLLM&apos;s custom all-reduce and NCCL&apos;s links within the node differ from the network&apos;s.</source>
        <translation>日志中的 worker 运行在 %1 台主机上（%2）：这些 GPU 跨越多个节点。kvscope 按单节点规划：它在 TP &gt; 1 时 PyTorch 之外的显存取的是单节点 GPU 的数值，而单节点内 vLLM 的自定义 all-reduce 和 NCCL 的链路与跨网络时不同。</translation>
    </message>
    <message>
        <source>CUDA graphs for batches up to %1 tokens only, larger ones slower</source>
        <translation>只为不超过 %1 个 token 的批量捕获 CUDA 图，更大的批量变慢</translation>
    </message>
    <message>
        <source>no CUDA graphs, slower steps</source>
        <translation>不用 CUDA graph，步长变慢</translation>
    </message>
    <message>
        <source>Under %1 vLLM captures no CUDA graphs, so nothing is taken out of the budget for them.</source>
        <translation>在 %1 下 vLLM 不捕获 CUDA graph，因此预算中不为它们扣除任何显存。</translation>
    </message>
    <message>
        <source>The log&apos;s engine config turns vLLM&apos;s all-reduce + RMSNorm fusion on (%1), which this release does not do by default on this GPU (vLLM does from 0.16, at TP &gt; 1 on compute capability 9.0 and 10.x): kvscope plans %2 outside PyTorch, one GPU&apos;s figure, where starts with the fusion on NVLink hold about %3, so the logged KV cache is likely smaller than planned.</source>
        <translation>日志的引擎配置打开了 vLLM 的 all-reduce + RMSNorm 融合（%1），而这个版本在这块 GPU 上默认不打开它（vLLM 从 0.16 起，在 TP &gt; 1、计算能力 9.0 和 10.x 上默认打开）：kvscope 规划 PyTorch 之外 %2，即单卡的数值，而在 NVLink 上打开融合的启动约占 %3，因此日志中的 KV Cache 很可能比规划的小。</translation>
    </message>
    <message>
        <source>The log&apos;s engine config turns vLLM&apos;s all-reduce + RMSNorm fusion off (%1), which this release turns on by default at TP &gt; 1 on this GPU: kvscope plans the %2 outside PyTorch that comes with the fusion, where starts without it hold about one GPU&apos;s figure, %3, so the logged KV cache is likely larger than planned.</source>
        <translation>日志的引擎配置关闭了 vLLM 的 all-reduce + RMSNorm 融合（%1），而这个版本在这块 GPU 上 TP &gt; 1 时默认打开它：kvscope 规划了随融合而来的 PyTorch 之外 %2，而不开融合的启动只占约单卡的数值 %3，因此日志中的 KV Cache 很可能比规划的大。</translation>
    </message>
    <message>
        <source>This start loaded the compiled model from vLLM&apos;s compile cache (%1), and kvscope plans it so (%2 warm): a first start, which compiles it during the profiling run, leaves a smaller KV cache (on RTX 4090s under vLLM 0.27.1, 0.4 to 1.1 GiB less: validation logs 69 and 70, 135 to 138).</source>
        <translation>这次启动从 vLLM 的编译缓存加载了已编译的模型（%1），kvscope 也按此规划（%2 warm）：首次启动会在 profiling 运行期间编译模型，留下的 KV Cache 更小（在 RTX 4090、vLLM 0.27.1 上少 0.4 到 1.1 GiB：验证日志 69 和 70、135 到 138）。</translation>
    </message>
    <message>
        <source>This start compiled the model (%1), during the profiling run, whose memory then holds the compilation&apos;s allocations too: later starts that load the compiled graphs from vLLM&apos;s compile cache leave a larger KV cache (on RTX 4090s under vLLM 0.27.1, 0.4 to 1.1 GiB more: validation logs 69 and 70, 135 to 138). To keep the larger cache, keep vLLM&apos;s compile cache between starts (VLLM_CACHE_ROOT, ~/.cache/vllm by default; in a container, mount it as the model cache is mounted) and plan with %2 warm.</source>
        <translation>这次启动在 profiling 运行期间编译了模型（%1），于是 profiling 的显存也包含了编译的分配：之后从 vLLM 编译缓存加载已编译图的启动会留下更大的 KV Cache（在 RTX 4090、vLLM 0.27.1 上多 0.4 到 1.1 GiB：验证日志 69 和 70、135 到 138）。要保住更大的缓存，请在多次启动之间保留 vLLM 的编译缓存（VLLM_CACHE_ROOT，默认 ~/.cache/vllm；在容器中像挂载模型缓存那样挂载它），并用 %2 warm 规划。</translation>
    </message>
    <message>
        <source>the whole GPU, as the log advises</source>
        <translation>按日志建议占满整块 GPU</translation>
    </message>
    <message>
        <source>the most of the GPU free at start-up, %1 GiB</source>
        <translation>启动时空闲的 GPU 显存上限，%1 GiB</translation>
    </message>
    <message>
        <source>GPU %1 with the log&apos;s total_memory=%2GiB: the card&apos;s whole %3 MiB, as nvidia-smi lists it and as CUDA reports it on some systems (WSL2), where the preset holds CUDA&apos;s %4 GiB on Linux; give %5 for another</source>
        <translation>GPU %1，采用日志的 total_memory=%2GiB：即整卡的 %3 MiB（nvidia-smi 列出的总量，某些系统如 WSL2 下 CUDA 也这样报告），而预设采用 Linux 下 CUDA 报告的 %4 GiB；如需其他 GPU 请用 %5</translation>
    </message>
    <message>
        <source>When vLLM started, %1 GiB of the GPU&apos;s %2 GiB were free: %3 GiB were in use already (vLLM&apos;s own CUDA context and other processes: a desktop, another server). vLLM&apos;s budget is a share of the whole card and must fit in the free memory, so %4 %5 is the most it takes here.</source>
        <translation>vLLM 启动时，GPU 的 %2 GiB 中有 %1 GiB 空闲：已有 %3 GiB 被占用（vLLM 自己的 CUDA 上下文和其他进程：桌面、另一个服务）。vLLM 的预算是整卡的一个比例，且必须放得进空闲显存，因此这里最多只能用 %4 %5。</translation>
    </message>
    <message>
        <source> This log&apos;s capture took %1 GiB after the cache was sized, held beyond the budget.</source>
        <translation>本日志中，KV Cache 分配之后的 graph 捕获占用了 %1 GiB，位于预算之外。</translation>
    </message>
    <message>
        <source> On Model Runner V2 a start that compiles the model during the profiling run holds what the compilation allocates, which kvscope does not size: it keeps V1&apos;s profiling peak, the sampler&apos;s warm-up over %1 sequences of logits, for it. A start with vLLM&apos;s compile cache warm holds V2&apos;s own peak, %2 here (%3 warm: the KV cache would be %4 larger).</source>
        <translation>在 Model Runner V2 上，在 profiling 运行期间编译模型的启动还包含编译所分配的显存，kvscope 不估算这部分：它为此沿用 V1 的 profiling 峰值，即采样器对 %1 个序列的 logits 的预热。编译缓存已就绪的启动占用 V2 自身的峰值，此处为 %2（%3 warm：KV Cache 会大 %4）。</translation>
    </message>
    <message>
        <source>free_memory %1 GiB: outside the GPU&apos;s %2 GiB, not used</source>
        <translation>free_memory %1 GiB：超出 GPU 的 %2 GiB，不予采用</translation>
    </message>
</context>
<context>
    <name>kvscope::LogitErrorChart</name>
    <message>
        <source>What the quantized keys do to each logit</source>
        <translation>量化后的键对每个 logit 的影响</translation>
    </message>
    <message>
        <source>cached token</source>
        <translation>缓存的 token</translation>
    </message>
    <message>
        <source>logit error l′ − l</source>
        <translation>logit 误差 l′ − l</translation>
    </message>
    <message>
        <source>%1 keys</source>
        <translation>%1 键</translation>
    </message>
</context>
<context>
    <name>kvscope::MainWindow</name>
    <message>
        <source>Some settings were not restored: %1</source>
        <translation>部分设置未能恢复：%1</translation>
    </message>
    <message>
        <source>About kvscope</source>
        <translation>关于 kvscope</translation>
    </message>
    <message>
        <source>Explorer</source>
        <translation>探索</translation>
    </message>
    <message>
        <source>GiB = 2^30 bytes · figures per GPU</source>
        <translation>GiB = 2^30 字节 · 数字均为每块 GPU</translation>
    </message>
    <message>
        <source>%1 on %2 × %3 — kvscope</source>
        <translation>%1 运行于 %2 × %3 — kvscope</translation>
    </message>
    <message>
        <source>%1 on %2 — kvscope</source>
        <translation>%1 运行于 %2 — kvscope</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>正在导入 %1…</translation>
    </message>
    <message>
        <source>Imported %1 (%2)</source>
        <translation>已导入 %1（%2）</translation>
    </message>
    <message>
        <source>Cannot import model</source>
        <translation>无法导入模型</translation>
    </message>
    <message>
        <source>Open model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <source>Models (*.json *.gguf *.safetensors);;HuggingFace config (*.json);;llama.cpp GGUF (*.gguf);;All files (*)</source>
        <translation>模型 (*.json *.gguf *.safetensors);;HuggingFace 配置 (*.json);;llama.cpp GGUF (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open model folder (config.json + .safetensors)</source>
        <translation>打开模型文件夹（config.json + .safetensors）</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>The scenario differs from %1. Save the changes?</source>
        <translation>当前场景与 %1 不同。是否保存更改？</translation>
    </message>
    <message>
        <source>Cannot open scenario</source>
        <translation>无法打开场景</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>Open scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <source>kvscope scenarios (*.kvscope);;All files (*)</source>
        <translation>kvscope 场景 (*.kvscope);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot save scenario</source>
        <translation>无法保存场景</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Save scenario</source>
        <translation>保存场景</translation>
    </message>
    <message>
        <source>kvscope scenarios (*.kvscope)</source>
        <translation>kvscope 场景 (*.kvscope)</translation>
    </message>
    <message>
        <source>Cannot export the report</source>
        <translation>无法导出报告</translation>
    </message>
    <message>
        <source>Export figures</source>
        <translation>导出数据</translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON, as kvscope calc %1 (*.json)</source>
        <translation>CSV (*.csv);;JSON，与 kvscope calc %1 相同 (*.json)</translation>
    </message>
    <message>
        <source>%1: figures are saved as .csv or .json</source>
        <translation>%1：数据只能保存为 .csv 或 .json</translation>
    </message>
    <message>
        <source>Cannot export the figures</source>
        <translation>无法导出数据</translation>
    </message>
    <message>
        <source>&lt;h3&gt;kvscope %1&lt;/h3&gt;&lt;p&gt;Will this model fit on this GPU at this precision? How many tokens and concurrent requests does the KV cache hold?&lt;/p&gt;&lt;p&gt;Figures follow vLLM&apos;s own memory accounting.&lt;/p&gt;&lt;p&gt;%2&lt;/p&gt;&lt;p&gt;Released under the MIT licence.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;kvscope %1&lt;/h3&gt;&lt;p&gt;这个模型在这种精度下能放进这块 GPU 吗？KV Cache 能容纳多少 token、多少并发请求？&lt;/p&gt;&lt;p&gt;数字遵循 vLLM 自身的显存计算方式。&lt;/p&gt;&lt;p&gt;%2&lt;/p&gt;&lt;p&gt;以 MIT 许可证发布。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Presentation mode: Ctrl + / Ctrl − zoom, Page Up / Page Down step through the scenarios, F5 to leave</source>
        <translation>演示模式：Ctrl + / Ctrl − 缩放，Page Up / Page Down 切换场景，F5 退出</translation>
    </message>
    <message>
        <source>The scenario strip is empty: add the scenario on screen with Ctrl+D.</source>
        <translation>场景条为空：按 Ctrl+D 把当前场景加入其中。</translation>
    </message>
</context>
<context>
    <name>kvscope::ParameterPanel</name>
    <message>
        <source>warm: a restart</source>
        <translation>热：重启</translation>
    </message>
    <message>
        <source>vLLM with VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1 (%1): an MXFP4 MoE&apos;s experts (gpt-oss) quantize their activations to MXFP8 and multiply on the FP8 tensor cores (FlashInfer&apos;s kernel) instead of expanding the weights to 16 bits. Speed only; vLLM offers it on compute capability 10.x GPUs (B200, GB200).</source>
        <translation>vLLM 设置 VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1（%1）：MXFP4 MoE 的专家（gpt-oss）把激活量化为 MXFP8，在 FP8 张量核心上相乘（FlashInfer 的内核），不再把权重展开成 16 位。只影响速度；vLLM 只在计算能力 10.x 的 GPU（B200、GB200）上提供。</translation>
    </message>
    <message>
        <source>FP8 tensor cores</source>
        <translation>FP8 张量核心</translation>
    </message>
    <message>
        <source>%1 warm: vLLM restarts with its torch.compile cache holding the model (kept between starts, VLLM_CACHE_ROOT). On Model Runner V2 such a start holds V2&apos;s own profiling peak, smaller than a first start&apos;s, which compiles the model while profiling; V1 holds the same either way.</source>
        <translation>%1 warm：vLLM 重启时其 torch.compile 缓存中已有该模型（在多次启动之间保留，VLLM_CACHE_ROOT）。在 Model Runner V2 上，这样的启动占用 V2 自身的 profiling 峰值，小于首次启动（它在 profiling 时编译模型）；V1 两种情况相同。</translation>
    </message>
    <message>
        <source>auto (%1)</source>
        <translation>auto（%1）</translation>
    </message>
    <message>
        <source>model default (%1)</source>
        <translation>模型默认（%1）</translation>
    </message>
    <message>
        <source>Model and hardware</source>
        <translation>模型与硬件</translation>
    </message>
    <message>
        <source>Serving</source>
        <translation>服务</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;GPU</source>
        <translation>GPU(&amp;G)</translation>
    </message>
    <message>
        <source>KV precision</source>
        <translation>KV 精度</translation>
    </message>
    <message>
        <source>&amp;Batch size</source>
        <translation>Batch 大小(&amp;B)</translation>
    </message>
    <message>
        <source>Se&amp;quence length</source>
        <translation>序列长度(&amp;Q)</translation>
    </message>
    <message>
        <source>per row</source>
        <translation>每行</translation>
    </message>
    <message>
        <source>Built-in models grouped by family, with total (and active) parameters and the KV cache bytes per token at BF16. Type to search.</source>
        <translation>按系列分组的内置模型，显示总（及激活）参数量和 BF16 下每个 token 的 KV Cache 字节数。输入文字即可搜索。</translation>
    </message>
    <message>
        <source>The GPU and the memory its driver reports, which vLLM&apos;s budget starts from.</source>
        <translation>GPU 及其驱动报告的显存大小，vLLM 的预算由此算起。</translation>
    </message>
    <message>
        <source>%1: the model is split over this many GPUs. Figures are per GPU. KV heads are divided among GPUs, and replicated when there are more GPUs than KV heads; an MLA latent is replicated on every GPU.</source>
        <translation>%1：模型切分到这么多块 GPU 上，数字均为每块 GPU。KV Head 在 GPU 之间划分；GPU 多于 KV Head 时会复制；MLA 的潜向量在每块 GPU 上都有一份。</translation>
    </message>
    <message>
        <source>%1: the floating-point type of the weights that are not quantized, and of the activations. With %2 auto the KV cache follows it. auto = the checkpoint&apos;s dtype (float16 for float32 checkpoints and for AWQ/GPTQ).</source>
        <translation>%1：未量化权重和激活的浮点类型。%2 为 auto 时，KV Cache 跟随它。auto = checkpoint 的 dtype（float32 checkpoint 以及 AWQ/GPTQ 使用 float16）。</translation>
    </message>
    <message>
        <source>%1: how the weights are stored (FP8, INT8, AWQ/GPTQ INT4 with scales and zero points, NF4, MXFP4). Smaller weights leave more memory for the KV cache, but the KV bytes per token do not change. auto = the checkpoint&apos;s quantization_config, as vLLM does.</source>
        <translation>%1：权重的存储方式（FP8、INT8、带 scale 和 zero point 的 AWQ/GPTQ INT4、NF4、MXFP4）。权重变小后，能留给 KV Cache 的显存更多，但单个 token 的 KV Cache 大小不变。auto = checkpoint 中的 quantization_config，与 vLLM 一致。</translation>
    </message>
    <message>
        <source>AWQ/GPTQ: weights per group that share one scale and zero point (4 + 16/g + 4/g bits per weight).</source>
        <translation>AWQ/GPTQ：共享一组 scale 和 zero point 的权重个数（每个权重 4 + 16/g + 4/g 位）。</translation>
    </message>
    <message>
        <source>%1: the precision of the cached keys and values. This is the knob that changes the KV bytes per token: fp8 halves them versus bfloat16 and doubles the tokens the cache holds. auto follows %2.</source>
        <translation>%1：缓存的 Key 和 Value 的精度。只有它会改变单个 token 的 KV Cache 大小：fp8 比 bfloat16 减半，缓存能容纳的 token 数翻倍。auto 跟随 %2。</translation>
    </message>
    <message>
        <source>Walk the KV cache precision: FP32, FP16/BF16, FP8 (sets %1). Shortcut: Ctrl+K.</source>
        <translation>切换 KV Cache 精度：FP32、FP16/BF16、FP8（设置 %1）。快捷键：Ctrl+K。</translation>
    </message>
    <message>
        <source>%1: the share of GPU memory vLLM may use. The rest is left to CUDA graphs and other processes.</source>
        <translation>%1：vLLM 可使用的显存比例，其余留给 CUDA Graph 和其他进程。</translation>
    </message>
    <message>
        <source>%1: tokens per KV cache block. Sequences hold whole blocks.</source>
        <translation>%1：每个 KV Cache 块的 token 数。序列按整块占用。</translation>
    </message>
    <message>
        <source>%1: the longest request. Sets the maximum concurrency vLLM reports; vLLM refuses to start if one such request does not fit.</source>
        <translation>%1：最长请求的长度，决定 vLLM 报告的最大并发；放不下一个这样的请求时 vLLM 无法启动。</translation>
    </message>
    <message>
        <source>Sequences held in the KV cache at once. Shortcut: Ctrl+B.</source>
        <translation>同时保存在 KV Cache 中的序列数。快捷键：Ctrl+B。</translation>
    </message>
    <message>
        <source>Tokens per sequence (prompt + output). Shortcut: Ctrl+L.</source>
        <translation>每条序列的 token 数（提示 + 输出）。快捷键：Ctrl+L。</translation>
    </message>
    <message>
        <source>Imported</source>
        <translation>已导入</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>Add custom GPU…</source>
        <translation>添加自定义 GPU…</translation>
    </message>
    <message>
        <source>the whole sequence (%1)</source>
        <translation>整条序列（%1）</translation>
    </message>
    <message>
        <source>%1: the prompt of each request. The time to first token prefills it; shorter than the sequence, it sets the serving workload: the batch&apos;s users each send it and read the rest of the sequence as output.</source>
        <translation>%1：每个请求的提示词。首 token 时间要预填充它；比序列短时，它设定服务负载：batch 中的每个用户发送它，并把序列余下部分作为输出读回。</translation>
    </message>
    <message>
        <source>Precision (%1 flags)</source>
        <translation>精度（%1 参数）</translation>
    </message>
    <message>
        <source>%1: requests arriving a second, as vllm bench serve %1 sends them. Serving then runs with as many requests in flight as that rate keeps busy, or says the server saturates. 0: the batch&apos;s users in a closed loop, each sending a new request when the last one ends.</source>
        <translation>%1：每秒到达的请求数，与 vllm bench serve %1 发送请求的方式相同。服务随后以该速率所能维持的在途请求数运行，或指出服务器已饱和。0：Batch 中的用户以闭环方式发送，每个请求结束后再发送下一个。</translation>
    </message>
    <message>
        <source>closed loop</source>
        <translation>闭环</translation>
    </message>
    <message>
        <source> req/s</source>
        <translation> 请求/秒</translation>
    </message>
    <message>
        <source>%1: the layers are split into this many stages, each on the GPUs above (vLLM&apos;s split: the first stage holds the embedding, the last the head and the sampler). Every stage gets the KV blocks of the stage with the least room; figures per GPU are that stage&apos;s.</source>
        <translation>%1：把各层切成这么多级，每级跑在上面的 GPU 上（vLLM 的切法：第一级放嵌入层，最后一级放输出头和采样器）。每一级都只得到空间最少那一级的 KV 块数；每块 GPU 的数字取自那一级。</translation>
    </message>
    <message>
        <source>vLLM&apos;s default</source>
        <translation>vLLM 默认值</translation>
    </message>
    <message>
        <source>%1: the largest batch vLLM captures a CUDA graph for. Fewer graphs leave more of the budget for the KV cache from vLLM 0.21; larger batches then run without graphs. &quot;vLLM&apos;s default&quot;: twice %2, at most 512.</source>
        <translation>%1：vLLM 为之捕获 CUDA 图的最大批量。图越少，从 vLLM 0.21 起留给 KV 缓存的预算越多；更大的批量则不经 CUDA 图运行。“vLLM 默认值”：%2 的两倍，至多 512。</translation>
    </message>
    <message>
        <source>profiled</source>
        <translation>按剖析</translation>
    </message>
    <message>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <source>%1: the KV cache&apos;s memory per GPU, taken as given; vLLM then skips its profiled budget and %2 plays no part. &quot;profiled&quot;: vLLM&apos;s default, the budget less everything before the cache.</source>
        <translation>%1：每块 GPU 的 KV Cache 显存，按给定值使用；vLLM 随即跳过剖析出的预算，%2 不再起作用。“按剖析”：vLLM 的默认做法，即预算减去 KV Cache 之前的一切。</translation>
    </message>
    <message>
        <source>× rank</source>
        <translation>× 秩</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>%1 with %3: LoRA adapters held on each GPU at once. vLLM allocates every slot at load, %2 wide, for each attention and MLP projection; they count in the weights and come out of the KV cache.</source>
        <translation>%1（配合 %3）：每块 GPU 上同时驻留的 LoRA 适配器数。vLLM 在加载时就为每个注意力和 MLP 投影按 %2 分配好每个槽位；它们计入权重，并从 KV Cache 中扣除。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个 token</translation>
    </message>
    <message>
        <source>%1: tokens every sequence starts with alike (a system prompt). vLLM&apos;s prefix cache holds their full blocks once, so more sequences fit; a partial last block stays each sequence&apos;s own.</source>
        <translation>%1：每条序列开头都相同的 token（如系统提示词）。vLLM 的前缀缓存只为其完整块存一份，所以能放下更多序列；最后不满的块仍归各序列自己。</translation>
    </message>
    <message>
        <source>%1: host memory vLLM offloads KV blocks to, summed over the tensor-parallel ranks, through %2. It keeps evicted blocks for reuse (a prefix seen again is loaded, not recomputed); it does not raise how many sequences run at once.</source>
        <translation>%1：vLLM 通过 %2 卸载 KV 块所用的主机内存，按张量并行各 rank 合计。它保留被逐出的块以供复用（再次出现的前缀会被加载而非重算）；它不会提高同时运行的序列数。</translation>
    </message>
    <message>
        <source> drafts</source>
        <translation> 个草稿</translation>
    </message>
    <message>
        <source>num_speculative_tokens: drafts proposed and verified each step</source>
        <translation>num_speculative_tokens：每步提议并验证的草稿 token 数</translation>
    </message>
    <message>
        <source>%1: a drafter proposes tokens that the model verifies in one pass. An EAGLE draft, the checkpoint&apos;s MTP layers or a smaller draft model add their weights and their attention layers to the KV pool; n-gram looks the drafts up in the prompt, on the CPU.</source>
        <translation>%1：草稿器提出 token，由模型在一次前向中验证。EAGLE 草稿、检查点自带的 MTP 层或更小的草稿模型会把自己的权重和注意力层加入 KV 池；n-gram 在 CPU 上从提示中查找草稿。</translation>
    </message>
    <message>
        <source>%1: copies of the deployment, each on its own GPUs with its own requests and KV cache (the batch is shared among them). A MoE&apos;s routed experts are split over the GPUs of all of them. Figures per GPU are one rank&apos;s; the capacity card adds the deployment&apos;s.</source>
        <translation>%1：部署的副本数，每个副本在自己的 GPU 上处理自己的请求、拥有自己的 KV Cache（batch 在副本间平分）。MoE 的路由专家切分到所有副本的 GPU 上。每块 GPU 的数值是一个副本的；容量卡片另给出整个部署的数值。</translation>
    </message>
    <message>
        <source>%1: a MoE&apos;s routed experts are divided whole among the TP × DP GPUs (the first GPUs take one more when they do not divide), instead of each expert being split over them.</source>
        <translation>%1：MoE 的路由专家整块分配到 TP × DP 块 GPU 上（不能整除时前面的 GPU 多分一个），而不是把每个专家切分到这些 GPU 上。</translation>
    </message>
    <message>
        <source>%1: images each request sends. Each becomes the tokens the model&apos;s image processor writes for it (by %2), held in the KV cache beside the text and prefilled with it. Models without a vision tower kvscope models take none.</source>
        <translation>%1：每个请求发送的图像数。每张图像按模型的图像处理器（依 %2）变成相应数量的 token，与文本一起保存在 KV Cache 中并一起预填充。没有 kvscope 所建模视觉塔的模型不接受图像。</translation>
    </message>
    <message>
        <source>%1: each image&apos;s pixels before the processor resizes it</source>
        <translation>%1：每张图像在处理器缩放之前的像素尺寸</translation>
    </message>
    <message>
        <source>%1 · %2 tokens</source>
        <translation>%1 · %2 token</translation>
    </message>
    <message>
        <source>%1: the %2 GPUs split into %3 attention groups, each with its own KV pool and share of the requests; the MLPs, experts and LM head stay split over all of them. Figures per GPU are one group&apos;s; the capacity card adds the deployment&apos;s.</source>
        <translation>%1：把 %2 块 GPU 分成 %3 个注意力组，每组有自己的 KV 池并承担一部分请求；MLP、专家和 LM head 仍切分到全部 GPU 上。每块 GPU 的数字是一个组的；容量卡片给出整个部署的。</translation>
    </message>
    <message>
        <source>%1: a MoE&apos;s routed experts are divided among this many of the %2 GPUs, each expert split over the %2 / %1 GPUs of its group (SGLang&apos;s FusedMoE: the experts must divide evenly).</source>
        <translation>%1：MoE 的路由专家分配到 %2 个 GPU 中的这么多个上，每个专家再切分到所在组的 %2 / %1 个 GPU（SGLang 的 FusedMoE：专家数必须能整除）。</translation>
    </message>
    <message>
        <source>default (%1)</source>
        <translation>默认（%1）</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>redundant</source>
        <translation>冗余</translation>
    </message>
    <message>
        <source>%1: vLLM&apos;s expert-parallel load balancer moves busy experts between the GPUs. It keeps load counters, expert maps and (from vLLM 0.12) a buffer of one layer&apos;s experts on every GPU, counted with the weights.</source>
        <translation>%1：vLLM 的专家并行负载均衡器（EPLB）在 GPU 之间迁移繁忙的专家。它在每块 GPU 上保留负载计数器、专家映射表，以及（从 vLLM 0.12 起）一层专家的缓冲区，计入权重。</translation>
    </message>
    <message>
        <source>%1 num_redundant_experts: extra copies of experts spread over the GPUs (vLLM needs the experts and their copies to divide evenly among them); each GPU holds that many more.</source>
        <translation>%1 num_redundant_experts：分布到各 GPU 上的专家额外副本（vLLM 要求专家及其副本能在 GPU 间均分）；每块 GPU 相应多持有这些专家。</translation>
    </message>
    <message>
        <source>All-to-all</source>
        <translation>All-to-all</translation>
    </message>
    <message>
        <source>%1: how data-parallel ranks exchange a MoE&apos;s tokens under expert parallelism. deepep_high_throughput keeps DeepEP&apos;s 1 GiB NVLink buffer and a 32 MiB workspace on every GPU, which the KV cache gives up.</source>
        <translation>%1：专家并行下各数据并行 rank 之间如何交换 MoE 的 token。deepep_high_throughput 在每块 GPU 上保留 DeepEP 的 1 GiB NVLink 缓冲区和 32 MiB 工作区，KV Cache 因此变小。</translation>
    </message>
    <message>
        <source>%1: SGLang&apos;s share of the memory free after start-up for the weights and its token pool. The rest is left to activations and CUDA graphs.</source>
        <translation>%1：SGLang 从启动后空闲显存中划给权重和 token 池的比例，其余留给激活值和 CUDA Graph。</translation>
    </message>
    <message>
        <source>Context length</source>
        <translation>上下文长度</translation>
    </message>
    <message>
        <source>%1: the longest request. SGLang caps each request at it and at its token pool, and sets its default number of running requests from it.</source>
        <translation>%1：最长的请求。SGLang 以它和 token 池大小为每个请求的上限，并据此设定默认的并发请求数。</translation>
    </message>
    <message>
        <source>LM head per group</source>
        <translation>LM head 按组切分</translation>
    </message>
    <message>
        <source>%1: the LM head split over one attention group&apos;s GPUs instead of all %2 of them: more of it on every GPU, less KV cache.</source>
        <translation>%1：LM head 只在一个注意力组的 GPU 上切分，而不是全部 %2 块 GPU：每块 GPU 上的 LM head 更大，KV Cache 更少。</translation>
    </message>
    <message>
        <source>Dense MLPs whole</source>
        <translation>稠密 MLP 不切分</translation>
    </message>
    <message>
        <source>%1 1: a DeepSeek-style model&apos;s dense layers run their MLPs whole on every GPU instead of split over %2 (the shared experts stay split): more weights on every GPU, less KV cache.</source>
        <translation>%1 1：DeepSeek 类模型的稠密层在每块 GPU 上完整运行其 MLP，而不是在 %2 上切分（共享专家仍切分）：每块 GPU 的权重更多，KV Cache 更少。</translation>
    </message>
    <message>
        <source>vLLM release</source>
        <translation>vLLM 版本</translation>
    </message>
    <message>
        <source>newest (%1)</source>
        <translation>最新（%1）</translation>
    </message>
    <message>
        <source>%1: the vLLM release whose accounting the plan follows (what it takes out of the budget, its defaults); a release between two listed ones plans as the older.</source>
        <translation>%1：规划所依据的 vLLM 版本（它从预算中扣除什么、它的默认值）；介于两个所列版本之间的版本按较旧者规划。</translation>
    </message>
    <message>
        <source>eager</source>
        <translation>eager 模式</translation>
    </message>
    <message>
        <source>%1: vLLM runs without CUDA graphs. From vLLM 0.21 it then takes no CUDA-graph estimate out of the budget, so the KV cache is larger; every step launches its kernels from the host, which kvscope does not price (no speed figures).</source>
        <translation>%1：vLLM 不使用 CUDA graph 运行。从 vLLM 0.21 起，预算中便不再扣除 CUDA graph 估计值，KV Cache 因此更大；每一步的 kernel 都由主机逐个启动，kvscope 不为此定价（不给出速度数字）。</translation>
    </message>
</context>
<context>
    <name>kvscope::PasteConfigDialog</name>
    <message>
        <source>Paste config.json</source>
        <translation>粘贴 config.json</translation>
    </message>
    <message>
        <source>Name shown in the model list</source>
        <translation>在模型列表中显示的名称</translation>
    </message>
    <message>
        <source>Paste the model&apos;s config.json from its HuggingFace page:</source>
        <translation>从模型的 HuggingFace 页面粘贴 config.json：</translation>
    </message>
    <message>
        <source>pasted config</source>
        <translation>粘贴的配置</translation>
    </message>
</context>
<context>
    <name>kvscope::Planner</name>
    <message>
        <source>a warm start on Model Runner V2 (%1 warm): the profiling peak is V2&apos;s own, %2; a start that compiles the model holds 0.4 to 1.1 GiB more while profiling in the public logs (docs/validation.md)</source>
        <translation>Model Runner V2 上的热启动（%1 warm）：profiling 峰值为 V2 自身的 %2；在公开日志中，编译模型的启动在 profiling 时多占 0.4 到 1.1 GiB（docs/validation.md）</translation>
    </message>
    <message>
        <source>%1: must be a positive integer, got %2</source>
        <translation>%1：必须是正整数，实际为 %2</translation>
    </message>
    <message>
        <source>%1: must be in (0, 1], got %2</source>
        <translation>%1：必须在 (0, 1] 之间，实际为 %2</translation>
    </message>
    <message>
        <source>weights measured from the GGUF tensors (%1%2 bits per weight); the budget uses them</source>
        <translation>权重按 GGUF 张量实测（%1每个权重 %2 位）；预算使用实测值</translation>
    </message>
    <message>
        <source>GGUF weights under %2 %1 are divided evenly over the GPUs (an approximation)</source>
        <translation>%2 %1 时 GGUF 权重按 GPU 平均分配（近似）</translation>
    </message>
    <message>
        <source>vLLM raises the block size to %1 tokens so that one attention page (%2 B) holds one recurrent state page (%3 B, padded by %4 %)</source>
        <translation>vLLM 把块大小提高到 %1 token，使一个注意力页（%2 B）容纳一个循环状态页（%3 B，填充 %4 %）</translation>
    </message>
    <message>
        <source>older vLLM builds store fp8_ds_mla (656 B) even for %1 auto; pass %1 fp8 to plan that layout</source>
        <translation>较旧的 vLLM 版本即使 %1 auto 也存储 fp8_ds_mla（656 B）；用 %1 fp8 按该布局规划</translation>
    </message>
    <message>
        <source>%1 chunked-local layers keep only their %2-token chunk, as vLLM&apos;s hybrid KV cache manager allocates them; vLLM releases that disable it for Llama 4 by default count every layer as full attention</source>
        <translation>%1 个分块局部注意力层只保留所在的 %2 token 分块，与 vLLM 混合 KV 缓存管理器的分配一致；默认为 Llama 4 关闭该管理器的 vLLM 版本会把每层都按全注意力计算</translation>
    </message>
    <message>
        <source>the last %1 layers reuse earlier layers&apos; KV cache and hold none</source>
        <translation>最后 %1 层复用前面层的 KV 缓存，自身不占缓存</translation>
    </message>
    <message>
        <source>mxfp4 quantizes MoE experts only; %1 is dense, so its weights stay in %2</source>
        <translation>mxfp4 只量化 MoE 专家；%1 是稠密模型，权重保持 %2</translation>
    </message>
    <message>
        <source>%2: &apos;%1&apos; has no usable architecture (layers, hidden size, heads, vocab)</source>
        <translation>%2：&apos;%1&apos; 没有可用的架构（层数、隐藏维度、头数、词表）</translation>
    </message>
    <message>
        <source>%2: &apos;%1&apos; has no memory size</source>
        <translation>%2：&apos;%1&apos; 没有显存大小</translation>
    </message>
    <message>
        <source>%3: %1 exceeds %4 %2 (a sequence is its prompt plus its output)</source>
        <translation>%3：%1 超过 %4 %2（序列是提示加输出）</translation>
    </message>
    <message>
        <source>%2: must be a positive integer or -1, got %1</source>
        <translation>%2：必须是正整数或 -1，实际为 %1</translation>
    </message>
    <message>
        <source>%4: %1 is a GGUF file whose weights are stored%2 already; its tensor bytes are used, so &apos;%3&apos; does not apply</source>
        <translation>%4：%1 是 GGUF 文件，权重已经存储为量化格式%2；使用其张量字节，因此 &apos;%3&apos; 不适用</translation>
    </message>
    <message>
        <source>%1, for %2 with %6 %3, %7 %4, %8 %5</source>
        <translation>%1（%2，%6 %3，%7 %4，%8 %5）</translation>
    </message>
    <message>
        <source>vLLM would refuse to start: one %1-token request needs %2 KV blocks, the cache holds %3; %5 %4 would fit</source>
        <translation>vLLM 会拒绝启动：一个 %1 token 的请求需要 %2 个 KV 块，缓存只有 %3 个；%5 %4 可以放下</translation>
    </message>
    <message>
        <source>vLLM would refuse to start: no memory is left for KV cache blocks</source>
        <translation>vLLM 会拒绝启动：没有剩余显存用于 KV 缓存块</translation>
    </message>
    <message>
        <source>%3 %1 &gt; %2 KV heads: each GPU holds a replicated head</source>
        <translation>%3 %1 &gt; %2 个 KV 头：每块 GPU 持有一个复制的头</translation>
    </message>
    <message>
        <source>vLLM pads its KV groups with %1 empty layer slots (hybrid layout)</source>
        <translation>vLLM 为 KV 组补齐 %1 个空层位（混合布局）</translation>
    </message>
    <message>
        <source>%2: %1 sequences need sampler buffers beyond 2^63 bytes</source>
        <translation>%2：%1 个序列所需的采样缓冲区超过 2^63 字节</translation>
    </message>
    <message>
        <source>%2: %1 tokens need activation buffers beyond 2^63 bytes</source>
        <translation>%2：%1 个 token 所需的激活缓冲区超过 2^63 字节</translation>
    </message>
    <message>
        <source>%3 %1 and %4 %2 need activation buffers beyond 2^63 bytes</source>
        <translation>%3 %1 与 %4 %2 所需的激活缓冲区超过 2^63 字节</translation>
    </message>
    <message>
        <source>SGLang&apos;s default %5 for %1 at %6 %2: %3 (it keeps %4 MiB for activations and CUDA graphs)</source>
        <translation>SGLang 在 %1、%6 %2 下默认的 %5：%3（为激活值和 CUDA Graph 预留 %4 MiB）</translation>
    </message>
    <message>
        <source>vLLM %1 is newer than the newest release kvscope models; planned as vLLM %2</source>
        <translation>vLLM %1 比 kvscope 建模的最新版本还新；按 vLLM %2 计算</translation>
    </message>
    <message>
        <source>vLLM %1 keeps chunked-local attention out of its hybrid KV cache manager by default (VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=0): every layer holds the whole context</source>
        <translation>vLLM %1 默认不让分块局部注意力进入混合 KV Cache 管理器（VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=0）：每一层都保存完整上下文</translation>
    </message>
    <message>
        <source>%2 sglang: %1 is a GGUF file; kvscope plans SGLang for HuggingFace checkpoints only</source>
        <translation>%2 sglang：%1 是 GGUF 文件；kvscope 只为 HuggingFace 检查点计算 SGLang</translation>
    </message>
    <message>
        <source>SGLang&apos;s pool holds %1 tokens, fewer than %3 %2: it caps each request at the pool</source>
        <translation>SGLang 的缓存池只能容纳 %1 个 token，少于 %3 %2：每个请求的长度会被限制在缓存池大小以内</translation>
    </message>
    <message>
        <source>SGLang would refuse to start: no memory is left for the KV pool (&quot;Not enough memory. Please try to increase %1&quot;)</source>
        <translation>SGLang 将拒绝启动：没有显存留给 KV 缓存池（&quot;Not enough memory. Please try to increase %1&quot;）</translation>
    </message>
    <message>
        <source>vLLM %1 takes its estimated CUDA-graph memory (%2 for %3 piecewise and %4 full graphs of %5 layers) out of the budget before the KV cache (a vLLM environment variable turns that off: see docs/methodology.md, Engines and versions)</source>
        <translation>vLLM %1 在分配 KV Cache 之前先从预算中扣除估计的 CUDA Graph 显存（%2，共 %3 张分段图和 %4 张完整图，每张 %5 层）（可用 vLLM 的一个环境变量关闭：见 docs/methodology.md 的“Engines and versions”）</translation>
    </message>
    <message>
        <source>vLLM %1 takes its estimated CUDA-graph memory (%2 for %3 piecewise and %4 full graphs of %5 layers, each size without and with LoRA) out of the budget before the KV cache (a vLLM environment variable turns that off: see docs/methodology.md, Engines and versions)</source>
        <translation>vLLM %1 在分配 KV Cache 之前先从预算中扣除估计的 CUDA Graph 显存（%2，共 %3 张分段图和 %4 张完整图，每张 %5 层，每个尺寸分别捕获不带和带 LoRA 的图）（可用 vLLM 的一个环境变量关闭：见 docs/methodology.md 的“Engines and versions”）</translation>
    </message>
    <message>
        <source>vLLM %1 takes its estimated CUDA-graph memory (%2) out of the budget before the KV cache (a vLLM environment variable turns that off: see docs/methodology.md, Engines and versions)</source>
        <translation>vLLM %1 在分配 KV Cache 之前先从预算中扣除估计的 CUDA Graph 显存（%2）（可用 vLLM 的一个环境变量关闭：见 docs/methodology.md 的“Engines and versions”）</translation>
    </message>
    <message>
        <source>%1 (compute capability %2) has no bfloat16; pass %3 float16</source>
        <translation>%1（计算能力 %2）不支持 bfloat16；请传 %3 float16</translation>
    </message>
    <message>
        <source>%1 (compute capability %2) has no bfloat16: vLLM&apos;s %3 auto runs the bfloat16 checkpoint in float16</source>
        <translation>%1（计算能力 %2）不支持 bfloat16：vLLM 的 %3 auto 以 float16 运行这个 bfloat16 checkpoint</translation>
    </message>
    <message>
        <source>the weights alone (%1 per GPU) exceed the %2 budget by %3</source>
        <translation>仅权重（每块 GPU %1）就超出 %2 预算 %3</translation>
    </message>
    <message>
        <source>weights, activations and runtime overhead exceed the %1 budget by %2: no room for a KV cache</source>
        <translation>权重、激活和运行时开销超出 %1 预算 %2：没有空间留给 KV 缓存</translation>
    </message>
    <message>
        <source>the checkpoint measures %1 as stored; the estimate for %2 weights is %3 (%5 loads weights in %4; the budget uses the estimate)</source>
        <translation>检查点实测存储为 %1；按 %2 权重估计为 %3（%5 按 %4 加载权重；预算使用估计值）</translation>
    </message>
    <message>
        <source>DeepSeek sparse attention: %1 B of MLA latent%2 plus the indexer&apos;s %3 B key per token and layer, in 64-token blocks (%4&apos;s sparse MLA backend)</source>
        <translation>DeepSeek 稀疏注意力：每个 token 每层 %1 B MLA 潜向量%2，外加索引器 %3 B 键，按 64 token 分块（%4 稀疏 MLA 后端）</translation>
    </message>
    <message>
        <source>%3 runs %1 with float16 activations; %2 bfloat16 may be rejected</source>
        <translation>%3 以 float16 激活运行 %1；%2 bfloat16 可能被拒绝</translation>
    </message>
    <message>
        <source>%1 has no FP8 tensor cores: %2 keeps FP8 weights (same memory) and runs them weight-only through Marlin</source>
        <translation>%1 没有 FP8 张量核心：%2 保留 FP8 权重（显存相同），通过 Marlin 以仅权重量化方式运行</translation>
    </message>
    <message>
        <source>%2: %1 is larger than any %3 block size (at most 4096)</source>
        <translation>%2：%1 大于 %3 的任何块大小（最多 4096）</translation>
    </message>
    <message>
        <source>%4: %1 exceeds %2&apos;s max_position_embeddings %3 (%5 refuses it)</source>
        <translation>%4：%1 超过 %2 的 max_position_embeddings %3（%5 会拒绝）</translation>
    </message>
    <message>
        <source>%3: %1 is a llama.cpp cache type for GGUF models; %2 is not one (%4 offers auto, float16, bfloat16, fp8)</source>
        <translation>%3：%1 是 llama.cpp 用于 GGUF 模型的缓存类型；%2 不是 GGUF 模型（%4 提供 auto、float16、bfloat16、fp8）</translation>
    </message>
    <message>
        <source>%3 %1 exceeds %4 %2: %5 would reject such requests</source>
        <translation>%3 %1 超过 %4 %2：%5 会拒绝这样的请求</translation>
    </message>
    <message>
        <source>%1 %2: layers split %3 over the stages (vLLM&apos;s get_pp_indices); each stage&apos;s cache holds %4 blocks, the fewest any stage has room for (stage %5); the figures per GPU are that stage&apos;s</source>
        <translation>%1 %2：各级层数 %3（vLLM 的 get_pp_indices）；每一级的 KV Cache 都是 %4 块，即空间最少的一级（第 %5 级）所能容纳的；每块 GPU 的数字取自那一级</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2：%3</translation>
    </message>
    <message>
        <source>must be a positive integer</source>
        <translation>必须是正整数</translation>
    </message>
    <message>
        <source>kvscope plans pipeline parallelism under vLLM only</source>
        <translation>kvscope 只按 vLLM 规划流水线并行</translation>
    </message>
    <message>
        <source>more stages than %1&apos;s %2 layers (vLLM gives every stage at least one)</source>
        <translation>级数多于 %1 的 %2 层（vLLM 每级至少一层）</translation>
    </message>
    <message>
        <source>%1 has %2 layers; kvscope plans pipeline stages of models whose layers hold attention caches of their own</source>
        <translation>%1 含 %2 层；kvscope 只为各层各自持有注意力缓存的模型规划流水线级</translation>
    </message>
    <message>
        <source>%1 %2: vLLM groups %3&apos;s layers of different kinds over a pipeline&apos;s stages from 0.11 on (%4 %5)</source>
        <translation>%1 %2：vLLM 从 0.11 起才跨流水线各级为 %3 的不同类型层划分分组（%4 %5）</translation>
    </message>
    <message>
        <source>%1 is a GGUF file; kvscope plans pipeline stages of safetensors checkpoints only</source>
        <translation>%1 是 GGUF 文件；kvscope 只为 safetensors 检查点规划流水线级</translation>
    </message>
    <message>
        <source>Stage %1 · layers %2–%3%4</source>
        <translation>第 %1 级 · 第 %2–%3 层%4</translation>
    </message>
    <message>
        <source> · fewest blocks</source>
        <translation> · 块数最少</translation>
    </message>
    <message>
        <source>%1: is a vLLM option; %2 sizes its pool from %3</source>
        <translation>%1：是 vLLM 的参数；%2 按 %3 确定其显存池</translation>
    </message>
    <message>
        <source>%1 %2 and the %3 before the KV cache exceed the GPU&apos;s %4: vLLM would run out of memory allocating the cache (at most %5 fits)</source>
        <translation>%1 %2 加上 KV Cache 之前的 %3 超出了 GPU 的 %4：vLLM 分配 KV Cache 时会显存不足（最多放得下 %5）</translation>
    </message>
    <message>
        <source>%1 %2: vLLM skips the profiled budget and takes this for the KV cache (%3 plays no part); profiling would have left %4 at %3 %5, and the GPU&apos;s whole memory %6</source>
        <translation>%1 %2：vLLM 跳过剖析出的预算，直接用这个值作为 KV Cache（%3 不起作用）；按剖析在 %3 %5 下会剩 %4，用满整块 GPU 则剩 %6</translation>
    </message>
    <message>
        <source>%1: %2 is not a rank vLLM accepts (%3)</source>
        <translation>%1：%2 不是 vLLM 接受的秩（%3）</translation>
    </message>
    <message>
        <source>%1 %2 %3 %4: %5 of LoRA slots per GPU, allocated with the weights (and counted in them, as vLLM&apos;s &quot;Model loading took&quot; counts them) before the KV cache</source>
        <translation>%1 %2 %3 %4：每块 GPU 有 %5 的 LoRA 槽位，随权重一起分配（并计入权重，与 vLLM 的 “Model loading took” 一致），在 KV Cache 之前扣除</translation>
    </message>
    <message>
        <source>%1: is a vLLM option; kvscope plans vLLM&apos;s offloading only</source>
        <translation>%1：是 vLLM 的参数；kvscope 只规划 vLLM 的卸载</translation>
    </message>
    <message>
        <source>%1 %2 GiB (%3): %4 tokens of KV blocks kept in CPU memory for reuse (%5 a GPU), restored on a prefix hit; the sequences running at once still live in the GPU&apos;s cache, so the concurrency stays as planned</source>
        <translation>%1 %2 GiB（%3）：CPU 内存中留存 %4 个 token 的 KV 块以供复用（每块 GPU %5），前缀命中时换回；同时运行的序列仍在 GPU 的 KV Cache 中，所以并发数不变</translation>
    </message>
    <message>
        <source>%3: %1 is not less than %4 %2 (a sequence is the shared prefix and at least one token of its own)</source>
        <translation>%3：%1 不小于 %4 %2（一条序列是共享前缀再加至少一个自己的 token）</translation>
    </message>
    <message>
        <source>%1: %2&apos;s layers cache in %3 groups of several kinds, whose prefix hits vLLM aligns to a common block; kvscope plans a shared prefix for models whose layers all keep every token</source>
        <translation>%1：%2 的各层分属 %3 个不同类型的缓存组，vLLM 会把前缀命中对齐到公共块；kvscope 只为每层都保留全部 token 的模型规划共享前缀</translation>
    </message>
    <message>
        <source>%1 %2 of %3 %4 need LoRA buffers beyond 2^63 bytes</source>
        <translation>%1 %2（%3 %4）所需的 LoRA 缓冲区超出 2^63 字节</translation>
    </message>
    <message>
        <source>%1 nvfp4: %2 caches an MLA latent, whose NVFP4 layout kvscope does not model (use fp8 or auto)</source>
        <translation>%1 nvfp4：%2 缓存的是 MLA 潜向量，kvscope 未对其 NVFP4 布局建模（请用 fp8 或 auto）</translation>
    </message>
    <message>
        <source>kvscope plans speculative decoding without pipeline stages (the drafter shares the target&apos;s embedding only on one stage, EagleProposer.load_model)</source>
        <translation>kvscope 只规划不带流水线级的投机解码（草稿模型只在单级时共享目标模型的嵌入，见 EagleProposer.load_model）</translation>
    </message>
    <message>
        <source>%1 shares KV caches between layers; kvscope does not place draft layers among them</source>
        <translation>%1 的层之间共享 KV 缓存；kvscope 不会把草稿层放进其中</translation>
    </message>
    <message>
        <source>%1&apos;s config declares no multi-token-prediction layers (num_nextn_predict_layers), which mtp needs</source>
        <translation>%1 的配置没有声明多 token 预测层（num_nextn_predict_layers），而 mtp 需要它们</translation>
    </message>
    <message>
        <source>an EAGLE draft&apos;s attention page differs from %1&apos;s (latent or recurrent layers); kvscope plans EAGLE drafts on models with per-head KV caches</source>
        <translation>EAGLE 草稿的注意力页与 %1 的不同（潜向量层或循环层）；kvscope 只为逐头 KV 缓存的模型规划 EAGLE 草稿</translation>
    </message>
    <message>
        <source>%1 is not a one-layer dense EAGLE draft (it has %2 layers)</source>
        <translation>%1 不是单层稠密的 EAGLE 草稿（它有 %2 层）</translation>
    </message>
    <message>
        <source>%1 reads hidden states of width %2, %3&apos;s are %4: it drafts for another model</source>
        <translation>%1 读取宽度为 %2 的隐藏状态，而 %3 的是 %4：它是为另一个模型准备的草稿</translation>
    </message>
    <message>
        <source>%1 %2, num_speculative_tokens %3: the drafter&apos;s weights take %4 a GPU, its attention layers (%5) join the KV pool (%6 B a token over every layer), and a running request holds %7 token slots beyond its own; vLLM&apos;s logged concurrency leaves the slots out</source>
        <translation>%1 %2，num_speculative_tokens %3：草稿模型的权重每块 GPU 占 %4，它的注意力层（%5 层）加入 KV 缓存池（所有层合计每个 token %6 B），每个运行中的请求在自身 token 之外还占 %7 个 token 槽位；vLLM 日志中的最大并发不计这些槽位</translation>
    </message>
    <message>
        <source>%1 %2 (estimated %3)</source>
        <translation>%1 %2（估计 %3）</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>activation peak</source>
        <translation>激活峰值</translation>
    </message>
    <message>
        <source>non-torch memory</source>
        <translation>非 torch 显存</translation>
    </message>
    <message>
        <source>CUDA-graph estimate</source>
        <translation>CUDA graph 估计</translation>
    </message>
    <message>
        <source>measured in %1: %2</source>
        <translation>实测于 %1：%2</translation>
    </message>
    <message>
        <source>vLLM&apos;s draft models do not draft for multimodal models (%1 has a vision tower; DraftModelProposer refuses it)</source>
        <translation>vLLM 的草稿模型不为多模态模型起草（%1 带视觉塔；DraftModelProposer 拒绝）</translation>
    </message>
    <message>
        <source>kvscope plans dense draft models with full attention beside targets with per-head KV caches; %1 with %2 is not sized yet</source>
        <translation>kvscope 规划的是全注意力的稠密草稿模型，配合按头存储 KV Cache 的目标模型；%1 搭配 %2 尚未建模</translation>
    </message>
    <message>
        <source>%1&apos;s vocabulary (%2) is not %3&apos;s (%4): %5</source>
        <translation>%1 的词表（%2）与 %3 的（%4）不同：%5</translation>
    </message>
    <message>
        <source>%1&apos;s attention (%2 KV heads of %3) differs from %4&apos;s (%5 of %6): %7</source>
        <translation>%1 的注意力（%2 个 KV 头，每头 %3）与 %4 的（%5 个，每头 %6）不同：%7</translation>
    </message>
    <message>
        <source>vLLM needs equal vocabularies (verify_equal_vocab_size_if_draft_model)</source>
        <translation>vLLM 要求词表相同（verify_equal_vocab_size_if_draft_model）</translation>
    </message>
    <message>
        <source>kvscope plans draft models whose KV pages match the target&apos;s (Qwen3-0.6B for Qwen3-32B, Llama-3.2-3B for Llama-3.3-70B)</source>
        <translation>kvscope 规划 KV 页与目标模型一致的草稿模型（如 Qwen3-32B 配 Qwen3-0.6B，Llama-3.3-70B 配 Llama-3.2-3B）</translation>
    </message>
    <message>
        <source>it drafts for another model</source>
        <translation>它是为另一个模型训练的草稿</translation>
    </message>
    <message>
        <source>its cache pages would not match the pool&apos;s</source>
        <translation>它的缓存页与池中的页大小不一致</translation>
    </message>
    <message>
        <source>SGLang would run out of memory loading the drafter: its weights (%1), its pool of %2 tokens (%3) and the copies of the target&apos;s embedding it holds while loading (%4) need more than the %5 %6 leaves (%7); lower %5</source>
        <translation>SGLang 加载草稿器时会显存不足：它的权重（%1）、%2 个 token 的池（%3）以及加载期间持有的目标模型 embedding 副本（%4）超过了 %5 %6 留下的空间（%7）；请调低 %5</translation>
    </message>
    <message>
        <source>%1 %2 (SGLang&apos;s %3 %4, %5 %6): the drafter&apos;s weights (%7), its own pool of the target&apos;s %8 tokens over %9 layer(s) (%10) and, while it loads, copies of the target&apos;s embedding (%11) sit outside %12, which SGLang&apos;s default lowers for a drafter; %13 remain for activations and CUDA graphs</source>
        <translation>%1 %2（SGLang 的 %3 %4，%5 %6）：草稿器的权重（%7）、与目标池同为 %8 个 token、覆盖 %9 层的独立池（%10），以及加载期间持有的目标模型 embedding 副本（%11），都在 %12 之外（SGLang 的默认值会为草稿器调低它）；剩余 %13 留给激活和 CUDA graph</translation>
    </message>
    <message>
        <source>memory free when the weights load</source>
        <translation>加载权重时的空闲显存</translation>
    </message>
    <message>
        <source>%1 %2: %2 engines of %3 GPU(s), each with its own KV cache and %4 of the %5 sequences; the figures per GPU are one rank&apos;s, the deployment holds %6 tokens</source>
        <translation>%1 %2：%2 个引擎，每个 %3 块 GPU，各有自己的 KV Cache，承担 %5 个序列中的 %4 个；每块 GPU 的数值是一个副本的，整个部署容纳 %6 个 token</translation>
    </message>
    <message>
        <source>%1: %2&apos;s %3 routed experts a layer divided among %4 GPUs, %5 on this GPU%6 (vLLM&apos;s determine_expert_map)</source>
        <translation>%1：%2 每层 %3 个路由专家分配到 %4 块 GPU 上，本 GPU %5 个%6（vLLM 的 determine_expert_map）</translation>
    </message>
    <message>
        <source> (%1 on the last ranks)</source>
        <translation>（后面的副本各 %1 个）</translation>
    </message>
    <message>
        <source>%1 changes nothing here: %2 (vLLM uses expert parallelism for routed experts over more than one GPU)</source>
        <translation>%1 在这里不起作用：%2（vLLM 只在多于一块 GPU 时对路由专家使用专家并行）</translation>
    </message>
    <message>
        <source>one GPU</source>
        <translation>只有一块 GPU</translation>
    </message>
    <message>
        <source>%1 has no routed experts</source>
        <translation>%1 没有路由专家</translation>
    </message>
    <message>
        <source>kvscope plans data-parallel ranks without pipeline stages (%1 %2)</source>
        <translation>kvscope 规划的数据并行副本不含流水线级（%1 %2）</translation>
    </message>
    <message>
        <source>kvscope plans at most %1 ranks</source>
        <translation>kvscope 最多规划 %1 个副本</translation>
    </message>
    <message>
        <source>%1: %2 GPUs (TP x DP) are more than %3&apos;s %4 routed experts: some would hold none</source>
        <translation>%1：%2 块 GPU（TP x DP）多于 %3 的 %4 个路由专家：有的 GPU 会分不到专家</translation>
    </message>
    <message>
        <source>without %1 vLLM splits every expert over the %2 GPUs (TP x DP), which do not divide moe_intermediate_size %3 of %4</source>
        <translation>不开 %1 时 vLLM 把每个专家切分到 %2 块 GPU（TP x DP）上，而它们不能整除 %4 的 moe_intermediate_size %3</translation>
    </message>
    <message>
        <source>speed: not modelled under %1 %2 (no measurement of that layout to calibrate on)</source>
        <translation>速度：%1 %2 下尚未建模（没有这种布局的实测可供校准）</translation>
    </message>
    <message>
        <source>Images: %1 a request of %2 px; the processor resizes each to %3 px, %4 tokens in the prompt (%5 encoder outputs); a sequence holds %6 text + %7 image tokens = %8</source>
        <translation>图像：每个请求 %1 张 %2 像素的图像；处理器把每张缩放到 %3 像素，在 prompt 中占 %4 个 token（编码器输出 %5 个）；每条序列保存 %6 个文本 token + %7 个图像 token = %8</translation>
    </message>
    <message>
        <source>a sequence&apos;s text and images,</source>
        <translation>序列的文本与图像共</translation>
    </message>
    <message>
        <source>%2: %1 tokens need encoder outputs beyond 2^63 bytes</source>
        <translation>%2：%1 个 token 所需的编码器输出超过 2^63 字节</translation>
    </message>
    <message>
        <source>%1 %2 %3: SGLang&apos;s %4 GPUs in %2 attention groups of %5, each with its own KV pool and %6 of the %7 sequences, the MLPs and experts split over all %4; the figures per GPU are one group&apos;s, the deployment holds %8 tokens</source>
        <translation>%1 %2 %3：SGLang 的 %4 块 GPU 分成 %2 个注意力组，每组 %5 块，各有自己的 KV 池并承担 %7 条序列中的 %6 条，MLP 和专家切分到全部 %4 块上；每块 GPU 的数字是一个组的，整个部署容纳 %8 个 token</translation>
    </message>
    <message>
        <source>%1 %2 without %3: SGLang runs %2 independent copies of the server behind its router; plan one copy, or give %3 for the attention groups of one</source>
        <translation>%1 %2 但未给 %3：SGLang 会在其路由器后运行 %2 个独立的服务副本；请规划其中一个副本，或给出 %3 以规划一个副本内的注意力组</translation>
    </message>
    <message>
        <source>%1 %2: SGLang&apos;s data-parallel attention splits the %3 %4 GPUs into equal groups, and %2 does not divide %4</source>
        <translation>%1 %2：SGLang 的数据并行注意力把 %3 %4 块 GPU 均分成若干组，而 %2 不能整除 %4</translation>
    </message>
    <message>
        <source>kvscope sizes DeepSeek-V3&apos;s and Qwen3-Next&apos;s MTP layers (deepseek_mtp.py, qwen3_next_mtp.py); %1&apos;s (%2) are not sized yet</source>
        <translation>kvscope 可计算 DeepSeek-V3 与 Qwen3-Next 的 MTP 层（deepseek_mtp.py、qwen3_next_mtp.py）；%1 的（%2）尚不支持</translation>
    </message>
    <message>
        <source>SGLang keeps each request&apos;s recurrent state for every draft token in buffers kvscope does not size yet; kvscope plans %1&apos;s MTP under vLLM</source>
        <translation>SGLang 为每个请求的每个草稿 token 保留一份循环状态，这些缓冲区 kvscope 尚不计算；%1 的 MTP 请在 vLLM 下规划</translation>
    </message>
    <message>
        <source>%1 is vLLM&apos;s; SGLang divides a MoE&apos;s experts with %2</source>
        <translation>%1 是 vLLM 的选项；SGLang 用 %2 分配 MoE 的专家</translation>
    </message>
    <message>
        <source>SGLang&apos;s; vLLM divides the experts with %1</source>
        <translation>这是 SGLang 的选项；vLLM 用 %1 分配专家</translation>
    </message>
    <message>
        <source>kvscope plans it without pipeline stages</source>
        <translation>kvscope 只在没有流水线阶段时规划它</translation>
    </message>
    <message>
        <source>does not divide the %1 %2 GPUs</source>
        <translation>不能整除 %1 的 %2 个 GPU</translation>
    </message>
    <message>
        <source>does not divide %1&apos;s %2 routed experts (SGLang&apos;s FusedMoE gives every EP rank as many)</source>
        <translation>不能整除 %1 的 %2 个路由专家（SGLang 的 FusedMoE 给每个 EP rank 分配相同数量）</translation>
    </message>
    <message>
        <source>each expert would be split over %1 GPUs, which do not divide moe_intermediate_size %2</source>
        <translation>每个专家将切分到 %1 个 GPU，而它不能整除 moe_intermediate_size %2</translation>
    </message>
    <message>
        <source>%1 %2: %3&apos;s %4 routed experts a layer divided among %2 GPUs, %5 on this GPU%6 (SGLang&apos;s FusedMoE)</source>
        <translation>%1 %2：%3 每层 %4 个路由专家分配到 %2 个 GPU，本 GPU 持有 %5 个%6（SGLang 的 FusedMoE）</translation>
    </message>
    <message>
        <source>, each split over %1 GPUs</source>
        <translation>，每个切分到 %1 个 GPU</translation>
    </message>
    <message>
        <source>, each whole</source>
        <translation>，每个完整存放</translation>
    </message>
    <message>
        <source>SGLang&apos;s n-gram drafting (%1 NGRAM) refuses %2: &quot;Currently ngram speculative decoding does not support dp attention.&quot;</source>
        <translation>SGLang 的 n-gram 草稿（%1 NGRAM）拒绝 %2：&quot;Currently ngram speculative decoding does not support dp attention.&quot;</translation>
    </message>
    <message>
        <source>%1 %2: SGLang&apos;s pool for DeepSeek sparse attention has no FP4 path (its FP4 caches are for MHA and MLA pools)</source>
        <translation>%1 %2：SGLang 为 DeepSeek 稀疏注意力建的缓存池没有 FP4 路径（其 FP4 缓存只用于 MHA 和 MLA 缓存池）</translation>
    </message>
    <message>
        <source>SGLang resets %1 to %2 for speculative decoding when it is not given: at most %2 requests run at once</source>
        <translation>未指定时，SGLang 在推测解码下把 %1 重设为 %2：同时最多运行 %2 个请求</translation>
    </message>
    <message>
        <source>SGLang&apos;s FP4 pool counts %1 B a token beside the %2 B of the layers&apos; caches: one FP8 K and V of a layer that its prompt passes dequantize into, shared by the layers</source>
        <translation>SGLang 的 FP4 缓存池在各层缓存的 %2 B 之外，每个 token 再计 %1 B：一层的 FP8 K 和 V，供提示词前向反量化使用，由各层共享</translation>
    </message>
    <message>
        <source>%1 fp4_mx_block16 is SGLang&apos;s FP4 cache; vLLM&apos;s is nvfp4 (CacheConfig.cache_dtype, vllm/config/cache.py)</source>
        <translation>%1 fp4_mx_block16 是 SGLang 的 FP4 缓存；vLLM 的是 nvfp4（CacheConfig.cache_dtype，vllm/config/cache.py）</translation>
    </message>
    <message>
        <source>%1 + %2 redundant = %3</source>
        <translation>%1 + %2 个冗余 = %3</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>num_redundant_experts %1 needs %2 (vLLM refuses redundant experts without EPLB)</source>
        <translation>num_redundant_experts %1 需要 %2（未启用 EPLB 时 vLLM 拒绝冗余专家）</translation>
    </message>
    <message>
        <source>vLLM&apos;s; kvscope plans SGLang without its load balancer</source>
        <translation>这是 vLLM 的选项；kvscope 规划 SGLang 时不含其负载均衡器</translation>
    </message>
    <message>
        <source>needs %1 (&quot;enable_expert_parallel must be True to use EPLB&quot;)</source>
        <translation>需要 %1（“enable_expert_parallel must be True to use EPLB”）</translation>
    </message>
    <message>
        <source>needs more than one GPU (&quot;EPLB requires tensor_parallel_size or data_parallel_size to be greater than 1&quot;)</source>
        <translation>需要多于一块 GPU（“EPLB requires tensor_parallel_size or data_parallel_size to be greater than 1”）</translation>
    </message>
    <message>
        <source>vLLM runs it on CUDA and ROCm GPUs only, not on the %1</source>
        <translation>vLLM 只在 CUDA 和 ROCm GPU 上运行它，不支持 %1</translation>
    </message>
    <message>
        <source>vLLM&apos;s %1 (%2) does not implement the MixtureOfExperts interface EPLB needs</source>
        <translation>vLLM 的 %1（%2）没有实现 EPLB 所需的 MixtureOfExperts 接口</translation>
    </message>
    <message>
        <source>vLLM&apos;s %1 expert kernels do not support EPLB</source>
        <translation>vLLM 的 %1 专家内核不支持 EPLB</translation>
    </message>
    <message>
        <source>%1 + %2 redundant = %3 experts do not divide over the %4 EP GPUs (vLLM&apos;s EPLB needs as many on each)</source>
        <translation>%1 + %2 个冗余 = %3 个专家不能在 %4 块 EP GPU 上均分（vLLM 的 EPLB 要求每块 GPU 数量相同）</translation>
    </message>
    <message>
        <source>%1 with an MTP drafter: vLLM %2 does not balance the drafter&apos;s experts (vllm-project/vllm#25311 added it, in 0.12)</source>
        <translation>%1 与 MTP 草稿模型同用：vLLM %2 不均衡草稿模型的专家（vllm-project/vllm#25311 在 0.12 中加入）</translation>
    </message>
    <message>
        <source>%1: %2 routed experts and %3 redundant copies a layer over %4 GPUs, %5 on this GPU</source>
        <translation>%1：每层 %2 个路由专家和 %3 个冗余副本分布在 %4 块 GPU 上，本 GPU 持有 %5 个</translation>
    </message>
    <message>
        <source>%1; the balancer&apos;s state takes %2 a GPU (a buffer of one layer&apos;s experts %3, load counters %4, expert maps %5), built with the weights and counted in them as vLLM&apos;s &quot;Model loading took&quot; counts it</source>
        <translation>%1；均衡器状态每块 GPU 占 %2（一层专家的缓冲区 %3、负载计数器 %4、专家映射表 %5），随权重一起构建，并像 vLLM 的“Model loading took”一样计入权重</translation>
    </message>
    <message>
        <source>%1; vLLM %2 builds the balancer&apos;s maps and load counters (%3 a GPU) after measuring the weights, so they sit outside the KV budget, in the GPU&apos;s (1 - %4) share</source>
        <translation>%1；vLLM %2 在测量权重之后才构建均衡器的映射表和负载计数器（每块 GPU %3），因此它们不在 KV 预算之内，而占用 GPU 的 (1 - %4) 部分</translation>
    </message>
    <message>
        <source>kvscope does not size this backend&apos;s buffers yet (DeepEP&apos;s low-latency kernels keep theirs in NVSHMEM&apos;s heap); deepep_high_throughput and allgather_reducescatter are planned</source>
        <translation>kvscope 尚未计算该后端的缓冲区（DeepEP 的低延迟内核把缓冲区放在 NVSHMEM 的堆中）；可规划的是 deepep_high_throughput 和 allgather_reducescatter</translation>
    </message>
    <message>
        <source>DeepEP runs on NVIDIA GPUs, not on the %1</source>
        <translation>DeepEP 只在 NVIDIA GPU 上运行，不支持 %1</translation>
    </message>
    <message>
        <source>%1 EP GPUs span more than one node of %2, where DeepEP adds an RDMA buffer in NVSHMEM&apos;s heap that kvscope does not size yet</source>
        <translation>%1 块 EP GPU 跨越了不止一个 %2 卡节点，此时 DeepEP 会在 NVSHMEM 堆中再加一个 RDMA 缓冲区，kvscope 尚未计算它</translation>
    </message>
    <message>
        <source>%1 %2: DeepEP&apos;s NVLink buffer and workspace take %3 on every GPU (allocated with cudaMalloc before the profiling run, so counted outside PyTorch, in the runtime overhead); their speed is not priced</source>
        <translation>%1 %2：DeepEP 的 NVLink 缓冲区和工作区在每块 GPU 上占 %3（在剖析运行之前用 cudaMalloc 分配，因此计入 PyTorch 之外的内存，即运行时开销）；其速度未计价</translation>
    </message>
    <message>
        <source>%1 %2 changes nothing here: vLLM runs its all-to-all kernels for data-parallel ranks with expert parallelism only (%3 above 1 and %4)</source>
        <translation>%1 %2 在这里不起作用：vLLM 只在有专家并行的数据并行副本之间运行 all-to-all 内核（%3 大于 1 且 %4）</translation>
    </message>
    <message>
        <source>vLLM&apos;s; SGLang&apos;s own all-to-all backends are not modelled</source>
        <translation>这是 vLLM 的选项；SGLang 自己的 all-to-all 后端尚未建模</translation>
    </message>
    <message>
        <source>%1 with %2: vLLM&apos;s FusedMoEWithLoRA does not split the experts&apos; LoRA slots over EP ranks (&quot;EP support for Fused MoE LoRA is not implemented yet&quot;); kvscope does not size it</source>
        <translation>%1 配合 %2：vLLM 的 FusedMoEWithLoRA 不会把专家的 LoRA 槽位分摊到各 EP rank（“EP support for Fused MoE LoRA is not implemented yet”）；kvscope 不计算这种情况</translation>
    </message>
    <message>
        <source>speed: %1 %2 ranks each step their share of the batch at once%3; priced with the constants fitted on tensor-parallel deployments, not validated on a measurement of data-parallel ranks (docs/speed-validation.md)</source>
        <translation>速度：%1 %2 个 rank 同时各自推进自己那份 batch%3；按张量并行部署拟合的常数计价，尚未用数据并行 rank 的实测验证（docs/speed-validation.md）</translation>
    </message>
    <message>
        <source>, their MoE layers exchanging every rank&apos;s tokens with the experts&apos; GPUs (%1)</source>
        <translation>，其 MoE 层在各 rank 与专家所在 GPU 之间交换 token（%1）</translation>
    </message>
    <message>
        <source>speed: %1 has no %2 tensor-core peak; %3 weights are dequantized and multiply at the %4 peak (weight-only)</source>
        <translation>速度：%1 没有 %2 张量核峰值；%3 权重先反量化，再按 %4 峰值相乘（仅权重量化）</translation>
    </message>
    <message>
        <source>speed: no measurement calibrates reading an %1 KV cache; its dequantization is priced at the FP8 cache&apos;s fitted cost per second of reads</source>
        <translation>速度：没有实测校准读取 %1 KV Cache；其反量化按 FP8 Cache 每秒读取拟合的代价计价</translation>
    </message>
    <message>
        <source>speed: no public measurement of %1 kernels; priced as %2</source>
        <translation>速度：没有 %1 内核的公开实测；按 %2 计价</translation>
    </message>
    <message>
        <source>speed: each all-reduce waits %1 µs, vLLM's custom all-reduce timed between NVLink-joined GPUs; no timing calibrates it over %2's PCIe links</source>
        <translation>速度：每次 all-reduce 按 %1 µs 计，即 vLLM 自定义 all-reduce 在 NVLink 互连的 GPU 之间的实测耗时；%2 的 PCIe 链路上没有实测数据校准它</translation>
    </message>
    <message>
        <source>speed: each all-reduce waits %1 µs, vLLM's custom all-reduce timed between NVIDIA GPUs; no timing calibrates it between %2 GPUs</source>
        <translation>速度：每次 all-reduce 按 %1 µs 计，即 vLLM 自定义 all-reduce 在 NVIDIA GPU 之间的实测耗时；%2 GPU 之间没有实测数据校准它</translation>
    </message>
    <message>
        <source>speed: the calibration from %1 is for the GPU &apos;%2&apos;, not %3; not applied</source>
        <translation>速度：来自 %1 的校准针对 GPU &apos;%2&apos;，不是 %3；未应用</translation>
    </message>
    <message>
        <source>speed: %1 is given; the calibration from %2 is not applied</source>
        <translation>速度：已指定 %1；未应用来自 %2 的校准</translation>
    </message>
    <message>
        <source>speed: SGLang runs gpt-oss&apos;s MXFP4 experts through FlashInfer&apos;s kernel with MXFP8 activations on compute capability 10.x GPUs (%1 flashinfer_mxfp4, its default precision)</source>
        <translation>速度：在计算能力 10.x 的 GPU 上，SGLang 用 FlashInfer 的内核以 MXFP8 激活运行 gpt-oss 的 MXFP4 专家（%1 flashinfer_mxfp4，其默认精度）</translation>
    </message>
    <message>
        <source>speed: the MXFP4 experts run FlashInfer&apos;s TensorRT-LLM FP4 MoE, which routes and sums inside its GEMMs: a routed copy costs its FLOPs, not the fused MoE&apos;s %1 ns</source>
        <translation>速度：MXFP4 专家运行在 FlashInfer 的 TensorRT-LLM FP4 MoE 上，路由与求和都在其 GEMM 内完成：每个路由副本只计其 FLOPs，不计 fused MoE 的每副本 %1 ns</translation>
    </message>
    <message>
        <source>speed: %1 is set, but vLLM runs FlashInfer&apos;s MXFP4 x MXFP8 MoE kernel only for MXFP4 experts on compute capability 10.x GPUs; ignored here</source>
        <translation>速度：已设置 %1，但 vLLM 只在计算能力 10.x 的 GPU 上为 MXFP4 专家使用 FlashInfer 的 MXFP4 x MXFP8 MoE 内核；此处忽略</translation>
    </message>
    <message>
        <source>speed: bandwidth efficiency %1 (KV reads %2), calibrated from %3</source>
        <translation>速度：带宽效率 %1（KV 读取 %2），由 %3 校准</translation>
    </message>
    <message>
        <source>speed: %1 lists no %2; speed figures are not computed</source>
        <translation>速度：%1 没有列出 %2；不计算速度数值</translation>
    </message>
    <message>
        <source>speed: a draft model&apos;s acceptance depends on the pair and the data, and kvscope has no published figure for %1: give %2 for its speed</source>
        <translation>速度：草稿模型的接受率取决于模型组合和数据，kvscope 没有 %1 的公开数值：请用 %2 给出，才能计算速度</translation>
    </message>
    <message>
        <source>speed: %1&apos;s acceptance is the share of the output that repeats the prompt, and no figure is published for it: give %2 for its speed</source>
        <translation>速度：%1 的接受率是输出中重复提示词的比例，没有公开数值：请用 %2 给出，才能计算速度</translation>
    </message>
    <message>
        <source>speed: speculative decoding assumes each drafted token is accepted with probability %1 (%2), independently; a step&apos;s and each draft pass&apos;s own costs are fitted on vLLM&apos;s EAGLE-3 measurements (docs/methodology.md)</source>
        <translation>速度：投机解码假设每个草稿 token 以概率 %1（%2）独立被接受；每步及每次草稿前向的自身开销按 vLLM 的 EAGLE-3 实测拟合（docs/methodology.md）</translation>
    </message>
    <message>
        <source>speed: at %1 requests a second requests queue without end: with %2 in flight (what the KV cache and the engine run at once) the server completes %3 a second</source>
        <translation>速度：每秒 %1 个请求时队列会无限增长：同时在途 %2 个（KV Cache 和引擎能同时运行的数量）时，服务每秒只能完成 %3 个</translation>
    </message>
    <message>
        <source>speed: the KV cache holds %1 requests of %2 tokens at once; serving figures are for %1 users, the other %3 wait</source>
        <translation>速度：KV Cache 同时容纳 %1 个 %2 token 的请求；服务数值按 %1 个用户计算，其余 %3 个等待</translation>
    </message>
    <message>
        <source>speed: the prompt&apos;s first %1 tokens are the shared prefix&apos;s, kept in the prefix cache: its prefill computes the other %2, attending to all</source>
        <translation>速度：提示词前 %1 个 token 属于共享前缀，保存在前缀缓存中：预填充只计算其余 %2 个，但会关注全部 token</translation>
    </message>
    <message>
        <source>speed: the prefill counts the images&apos; %1 prompt tokens and the vision tower&apos;s encoding of the %2 images (%3 TFLOP a GPU, at the compute efficiency fitted on text prompts; no measurement of an encoder checks it)</source>
        <translation>速度：预填充计入图像的 %1 个提示 token 以及视觉塔对 %2 张图像的编码（每块 GPU %3 TFLOP，按文本提示拟合的计算效率；没有编码器实测验证）</translation>
    </message>
    <message>
        <source>speed: the LoRA kernels (a shrink and an expand for each wrapped layer and step) are not priced; no measurement to calibrate them on</source>
        <translation>速度：LoRA 内核（每个被包装层每步一次 shrink 和一次 expand）未计价；没有可供校准的实测</translation>
    </message>
    <message>
        <source>speed: the engine runs at most %1 %2 requests at once; the decode and serving figures are for %2 of the %3 sequences (the rest wait)</source>
        <translation>速度：引擎最多同时运行 %1 %2 个请求；解码和服务数值按 %3 个序列中的 %2 个计算（其余等待）</translation>
    </message>
    <message>
        <source>speed: the KV cache holds %1 of the %2 sequences at %3 tokens; the decode figures are for those %1 (the engine queues the rest)</source>
        <translation>速度：在 %3 token 时 KV Cache 只能容纳 %2 个序列中的 %1 个；解码数值按这 %1 个计算（引擎让其余的排队）</translation>
    </message>
    <message>
        <source>speed: %1</source>
        <translation>速度：%1</translation>
    </message>
    <message>
        <source>, every layer&apos;s MLP and experts over all %1 GPUs, each group&apos;s tokens gathered to them and back</source>
        <translation>，每层的 MLP 和专家切分在全部 %1 块 GPU 上，各组的 token 汇集过去再送回</translation>
    </message>
    <message>
        <source>SGLang keeps every token in %1&apos;s %2 sliding-window or chunked layers too: its one token pool spans every layer (only the architectures SGLang lists as hybrid get a pool of their own for the window), so a token takes %3 B where vLLM frees what leaves the window; attention still reads only the window</source>
        <translation>SGLang 在 %1 的 %2 个滑动窗口或分块注意力层中同样保留每个 token：它唯一的 token 池覆盖所有层（只有 SGLang 列为混合架构的模型才为窗口单独设池），因此每个 token 占 %3 B，而 vLLM 会释放移出窗口的部分；注意力计算仍只读取窗口内的 token</translation>
    </message>
    <message>
        <source>%2 sglang: SGLang keeps %1&apos;s compressed attention in pools of its own (DSV4PoolConfigurator); kvscope does not model them</source>
        <translation>%2 sglang：SGLang 把 %1 的压缩注意力放在专门的池中（DSV4PoolConfigurator）；kvscope 尚未建模</translation>
    </message>
    <message>
        <source>%1: SGLang keeps %2&apos;s window layers in a pool of their own; kvscope plans a shared prefix for models whose layers all keep every token</source>
        <translation>%1：SGLang 把 %2 的窗口层放在单独的池中；kvscope 只为所有层都保留全部 token 的模型规划共享前缀</translation>
    </message>
    <message>
        <source>%1: SGLang sizes a drafter&apos;s pool into %2&apos;s split of full and sliding-window pools, which kvscope does not model yet</source>
        <translation>%1：SGLang 会把草稿模型的池计入 %2 的全注意力池与滑动窗口池划分中，kvscope 尚未建模</translation>
    </message>
    <message>
        <source>SGLang would refuse to start: its sliding-window pool of %1 tokens (%2 of the full pool&apos;s %3) cannot hold one request&apos;s window of %4 tokens and a page (&quot;SWA pool cannot hold even one request&quot;); raise %5 or the memory left for the KV cache</source>
        <translation>SGLang 将拒绝启动：其滑动窗口池只有 %1 个 token（全注意力池 %3 个的 %2），放不下一个请求 %4 个 token 的窗口加一页（&quot;SWA pool cannot hold even one request&quot;）；请调大 %5 或留给 KV Cache 的显存</translation>
    </message>
    <message>
        <source>SGLang keeps %1&apos;s %2 window layers in a pool of their own beside the %3 full layers&apos; (its hybrid SWA pool): %4 x the full pool&apos;s tokens (%5), %6 tokens beside %7, each layer keeping a request&apos;s last %8; a token takes %9 B in the full layers and %10 B in the window layers</source>
        <translation>SGLang 把 %1 的 %2 个窗口层放在与 %3 个全注意力层分开的池中（混合 SWA 池）：容量为全注意力池 token 数的 %4 倍（%5），即 %6 个 token（全注意力池 %7 个），每层保留一个请求的最后 %8 个 token；每个 token 在全注意力层占 %9 B，在窗口层占 %10 B</translation>
    </message>
    <message>
        <source>%2 sglang: %1 has no attention layer, only recurrent ones; kvscope plans SGLang&apos;s state pool beside a KV pool</source>
        <translation>%2 sglang：%1 没有注意力层，只有循环层；kvscope 只规划与 KV 池并存的 SGLang 状态池</translation>
    </message>
    <message>
        <source>%1: SGLang keeps intermediate recurrent states for the drafts %2 verifies, which kvscope does not model yet</source>
        <translation>%1：SGLang 会为 %2 验证的草稿保留中间循环状态，kvscope 尚未建模</translation>
    </message>
    <message>
        <source>SGLang would refuse to start: its state pool of %1 requests&apos; recurrent states (%2 B each) serves none at %3 of them a request (&quot;state cache is too small to serve any requests&quot;); raise %4</source>
        <translation>SGLang 将拒绝启动：其状态池只容纳 %1 个请求的循环状态（每个 %2 B），按每请求 %3 个计无法服务任何请求（&quot;state cache is too small to serve any requests&quot;）；请调大 %4</translation>
    </message>
    <message>
        <source>SGLang keeps %1&apos;s %2 recurrent layers&apos; states in a state pool of their own, sized first: 0.9 of the memory for every 1 the KV pool gets (mamba_full_memory_ratio), %3 requests&apos; states of %4 B (the conv window in bfloat16, the recurrent matrices in float32), %5; at most a third of them, %6, run at once</source>
        <translation>SGLang 把 %1 的 %2 个循环层的状态放在单独的状态池中并先划定大小：KV 池每得 1 份显存，状态池得 0.9 份（mamba_full_memory_ratio），可容纳 %3 个请求的状态，每个 %4 B（卷积窗口为 bfloat16，循环矩阵为 float32），共 %5；其中至多三分之一，即 %6 个请求同时运行</translation>
    </message>
    <message>
        <source>%1: SGLang&apos;s LoRA pool holds %2&apos;s experts in buffers of its own shape, which kvscope does not size yet</source>
        <translation>%1：SGLang 的 LoRA 池为 %2 的专家使用自有形状的缓冲区，kvscope 尚未计算其大小</translation>
    </message>
    <message>
        <source>%1: vLLM serves LoRA adapters of %2 from release 0.10.2 on (%3 is %4)</source>
        <translation>%1：vLLM 从 0.10.2 版起才支持 %2 的 LoRA 适配器（%3 为 %4）</translation>
    </message>
    <message>
        <source>%1 1 changes nothing here: SGLang&apos;s %2 has no dense layers it runs whole</source>
        <translation>%1 1 在此不起作用：SGLang 的 %2 没有会完整运行的稠密层</translation>
    </message>
    <message>
        <source>%1 changes nothing here: SGLang&apos;s %2 does not split its LM head by attention group%3</source>
        <translation>%1 在此不起作用：SGLang 的 %2 不按注意力组切分其 LM head%3</translation>
    </message>
    <message>
        <source> (no attention groups: SGLang turns it off)</source>
        <translation>（没有注意力组：SGLang 会关闭它）</translation>
    </message>
    <message>
        <source>%1: SGLang&apos;s option; %2 is %3</source>
        <translation>%1：这是 SGLang 的选项；%2 为 %3</translation>
    </message>
    <message>
        <source>SGLang takes only 1 (or none)</source>
        <translation>SGLang 只接受 1（或不设置）</translation>
    </message>
    <message>
        <source>%1: SGLang splits the LM head by attention group only with %2</source>
        <translation>%1：SGLang 只有在 %2 时才按注意力组切分 LM head</translation>
    </message>
    <message>
        <source>%1 1: the dense layers&apos; MLPs whole on every GPU</source>
        <translation>%1 1：稠密层的 MLP 在每块 GPU 上完整存放</translation>
    </message>
    <message>
        <source>%1: the LM head over each group&apos;s %2</source>
        <translation>%1：LM head 切分到每组的 %2 块 GPU 上</translation>
    </message>
    <message>
        <source>SGLang&apos;s drafter as its releases of early 2026 budget it: a 2 GiB reserve in the default %1 (4 GiB from late February 2026); releases since June 2026 (0.5.14 at the latest) size the target&apos;s pool with the drafter&apos;s layers inside %1 and keep no reserve for it, which kvscope does not model yet</source>
        <translation>此处按 SGLang 2026 年初版本的方式计算草稿模型的显存预算：默认 %1 中预留 2 GiB（自 2026 年 2 月下旬起为 4 GiB）；2026 年 6 月之后的版本（最迟自 0.5.14 起）在 %1 之内连同草稿模型的层一起确定目标模型的池大小，且不再为其预留，kvscope 尚未建模</translation>
    </message>
    <message>
        <source>%1 with %2: SGLang&apos;s LoRA pool keys the experts by rank there, which kvscope does not size yet</source>
        <translation>%1 与 %2 同用：SGLang 的 LoRA 池此时按 rank 组织专家缓冲区，kvscope 尚未计算其大小</translation>
    </message>
    <message>
        <source>, every MoE layer&apos;s experts over all %1 GPUs, each group&apos;s tokens gathered to them and back (the dense layers&apos; MLPs whole on each GPU)</source>
        <translation>，每个 MoE 层的专家切分到全部 %1 块 GPU 上，各组的 token 汇集过去再送回（稠密层的 MLP 在每块 GPU 上完整运行）</translation>
    </message>
    <message>
        <source>%1: vLLM takes auto, float16 or bfloat16, got %2</source>
        <translation>%1：vLLM 只接受 auto、float16 或 bfloat16，实际为 %2</translation>
    </message>
    <message>
        <source>%1 %2: must be at least %3 %4</source>
        <translation>%1 %2：至少须为 %3 %4</translation>
    </message>
    <message>
        <source>%1: vLLM splits each slot&apos;s rank over the GPUs, and %2 %3 does not divide over %4 %5</source>
        <translation>%1：vLLM 会把每个槽位的秩切分到各 GPU 上，而 %2 %3 不能被 %4 %5 整除</translation>
    </message>
    <message>
        <source>%1 %2 %3 %4: SGLang&apos;s LoRA pool takes %5 a GPU, A and B buffers of the %7 projections (%6) built with the model, before the KV pool is sized</source>
        <translation>%1 %2 %3 %4：SGLang 的 LoRA 池每块 GPU 占 %5，为 %7 投影（%6）各建 A、B 缓冲区，与模型一同创建，早于 KV 池定大小</translation>
    </message>
    <message>
        <source>%1: kvscope sizes %2&apos;s LoRA slots as vLLM %3 and later hold them (%4 is %5)</source>
        <translation>%1：kvscope 按 vLLM %3 及之后版本的方式计算 %2 的 LoRA 槽位（%4 为 %5）</translation>
    </message>
    <message>
        <source>vLLM&apos;s &quot;Model loading took&quot; counts PyTorch&apos;s allocator blocks whole: %1 beyond the tensors&apos; bytes (%2 in all)</source>
        <translation>vLLM 的“Model loading took”按 PyTorch 分配器的整块计算：比张量字节多 %1（共 %2）</translation>
    </message>
    <message>
        <source>SGLang measures the load by the GPU&apos;s free memory: the weights take %1 more than their tensors (%2 with the float32 rotary table), the segments PyTorch&apos;s caching allocator holds around them (tensors rounded up to 2 MiB, those of 1 to 10 MiB sharing 20 MiB segments)</source>
        <translation>SGLang 以 GPU 的空闲显存衡量加载：权重比其张量多占 %1（连同 float32 的旋转位置编码表共 %2），即 PyTorch 缓存分配器在张量周围保留的段（张量向上取整到 2 MiB，1 到 10 MiB 的张量共用 20 MiB 的段）</translation>
    </message>
    <message>
        <source>%1: kvscope restricts SGLang&apos;s LoRA buffers to dense models&apos; q/k/v/o and gate/up/down projections; %2&apos;s other layers are not matched yet</source>
        <translation>%1：kvscope 只对稠密模型的 q/k/v/o 与 gate/up/down 投影限定 SGLang 的 LoRA 缓冲区；%2 的其他层尚未匹配</translation>
    </message>
    <message>
        <source>%1: %2 names no module of %3 that gets LoRA slots (%4)</source>
        <translation>%1：%2 不是 %3 中获得 LoRA 槽位的模块名（%4）</translation>
    </message>
    <message>
        <source>%1: %2 has %3, for which SGLang&apos;s LoRA pool holds no buffers kvscope sizes; it sizes vLLM&apos;s</source>
        <translation>%1：%2 含有 %3，SGLang 的 LoRA 池没有 kvscope 能计算的对应缓冲区；kvscope 计算的是 vLLM 的</translation>
    </message>
    <message>
        <source>vLLM %1 runs %2 on its Model Runner V2, which takes nothing out of the budget for the CUDA graphs until vLLM 0.29 (%3 under the V1 runner); they are captured after the KV cache is sized</source>
        <translation>vLLM %1 在其 Model Runner V2 上运行 %2，直到 vLLM 0.29 之前都不从预算中为 CUDA Graph 扣除任何显存（V1 运行器下为 %3）；CUDA Graph 在 KV Cache 定好大小之后才捕获</translation>
    </message>
    <message>
        <source>%1 with the native backend: vLLM before 0.19 fails to start offloading %2&apos;s latent-attention cache (%3 %4)</source>
        <translation>%1 使用原生后端：0.19 之前的 vLLM 在卸载 %2 的潜在注意力缓存时无法启动（%3 %4）</translation>
    </message>
    <message>
        <source>speed: %1 %2: a step passes the stages in turn, handing each token&apos;s hidden state to the next; with sequences enough, %2 batches are in flight, one a stage (vLLM&apos;s batch queue), and a batch&apos;s next step waits for the busiest stage to run all of them</source>
        <translation>速度：%1 %2：一步依次经过各级，把每个 token 的隐藏状态交给下一级；序列足够多时有 %2 个批次在途，每级一个（vLLM 的批次队列），一个批次的下一步要等最忙的那一级把它们全部跑完</translation>
    </message>
    <message>
        <source>speed: not modelled under %1 (without CUDA graphs; every measurement kvscope is calibrated on ran with them)</source>
        <translation>速度：%1 下不建模（不使用 CUDA graph；kvscope 校准所用的每一项测量都启用了 CUDA graph）</translation>
    </message>
    <message>
        <source>vLLM %1 takes no CUDA-graph memory out of the budget under %2: it captures no graphs, so it profiles none (%3 more KV cache, slower steps)</source>
        <translation>vLLM %1 在 %2 下不从预算中扣除 CUDA graph 显存：它不捕获 graph，也就不做这项 profiling（KV Cache 多出 %3，每步更慢）</translation>
    </message>
    <message>
        <source>vLLM %1 profiles CUDA-graph memory on CUDA GPUs only: on %2 it takes none out of the budget</source>
        <translation>vLLM %1 只在 CUDA GPU 上 profiling CUDA graph 显存：在 %2 上不从预算中扣除</translation>
    </message>
    <message>
        <source>speed: no calibration measurement on %1 GPUs; their bandwidth efficiency is the median of the measured generations (%2) and the engine&apos;s costs those fitted on them, checked only on the held-out measurements docs/speed-validation.md lists</source>
        <translation>速度：没有 %1 GPU 的校准测量；其带宽效率取已测各代的中位数（%2），引擎开销沿用在它们上拟合的值，仅由 docs/speed-validation.md 列出的留出测量检验</translation>
    </message>
    <message>
        <source>speed: %1 lists no FP32 vector rate; its weight-only dequantization is priced at the %2&apos;s ratio of that rate to bandwidth, the calibrated GPU where it costs the most</source>
        <translation>速度：%1 未给出 FP32 向量算力；其仅权重量化的反量化按 %2 的向量算力与带宽之比计价——在已校准的 GPU 中，这一开销在它上面最大</translation>
    </message>
    <message>
        <source>vLLM&apos;s encoder cache: a budget of %1 (%2 %3 or the largest image&apos;s %4 outputs, the larger); its profiling run encodes %5 image(s) of that size (%6 of pixels, a tower forward peak of %7) and holds their %8 of outputs through the language model&apos;s dummy forward</source>
        <translation>vLLM 的编码器缓存：预算 %1（取 %2 %3 与最大图像的 %4 个输出中较大者）；其剖析运行编码 %5 张该尺寸的图像（像素 %6，视觉塔前向峰值 %7），并在语言模型的虚拟前向期间保留它们 %8 的输出</translation>
    </message>
</context>
<context>
    <name>kvscope::PublishedResults</name>
    <message>
        <source>within twice its standard error</source>
        <translation>在两倍标准误差以内</translation>
    </message>
    <message>
        <source>worse</source>
        <translation>变差</translation>
    </message>
    <message>
        <source>better</source>
        <translation>变好</translation>
    </message>
</context>
<context>
    <name>kvscope::QuantizationFormat</name>
    <message>
        <source>unquantized</source>
        <translation>未量化</translation>
    </message>
    <message>
        <source>FP8 E4M3, fp32 scale per output channel</source>
        <translation>FP8 E4M3，每个输出通道一个 fp32 缩放</translation>
    </message>
    <message>
        <source>FP8 E4M3, fp32 scale per %1x%2 block</source>
        <translation>FP8 E4M3，每个 %1x%2 块一个 fp32 缩放</translation>
    </message>
    <message>
        <source>FP8 E4M3, fp32 scale per tensor</source>
        <translation>FP8 E4M3，每个张量一个 fp32 缩放</translation>
    </message>
    <message>
        <source>INT8, fp32 scale per output channel</source>
        <translation>INT8，每个输出通道一个 fp32 缩放</translation>
    </message>
    <message>
        <source>AWQ int%1, group %2, fp16 scales + int%1 zero points</source>
        <translation>AWQ int%1，分组 %2，fp16 缩放 + int%1 零点</translation>
    </message>
    <message>
        <source>GPTQ int%1, group %2, fp16 scales + int%1 zeros + int32 g_idx</source>
        <translation>GPTQ int%1，分组 %2，fp16 缩放 + int%1 零点 + int32 g_idx</translation>
    </message>
    <message>
        <source>NF4, blocks of 64, double-quantized absmax</source>
        <translation>NF4，每 64 个值一块，absmax 二次量化</translation>
    </message>
    <message>
        <source>NF4, blocks of 64, fp32 absmax</source>
        <translation>NF4，每 64 个值一块，fp32 absmax</translation>
    </message>
    <message>
        <source>MXFP4 (E2M1), E8M0 scale per 32 values</source>
        <translation>MXFP4（E2M1），每 32 个值一个 E8M0 缩放</translation>
    </message>
    <message>
        <source>group %1</source>
        <translation>分组 %1</translation>
    </message>
    <message>
        <source>per tensor</source>
        <translation>逐张量</translation>
    </message>
    <message>
        <source>per channel</source>
        <translation>逐通道</translation>
    </message>
    <message>
        <source>compressed-tensors %1: %2%3, %4, %5</source>
        <translation>compressed-tensors %1：%2%3，%4，%5</translation>
    </message>
    <message>
        <source>scheme</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>symmetric</source>
        <translation>对称</translation>
    </message>
    <message>
        <source>with zero points</source>
        <translation>带零点</translation>
    </message>
</context>
<context>
    <name>kvscope::QuantizationLabel</name>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>auto (checkpoint: %1)</source>
        <translation>auto（检查点：%1）</translation>
    </message>
</context>
<context>
    <name>kvscope::QuantizationView</name>
    <message>
        <source>Error w − w′</source>
        <translation>误差 w − w′</translation>
    </message>
    <message>
        <source>Relative error (w − w′) / |w|</source>
        <translation>相对误差 (w − w′) / |w|</translation>
    </message>
    <message>
        <source>Log counts</source>
        <translation>对数计数</translation>
    </message>
    <message>
        <source>Histogram:</source>
        <translation>直方图：</translation>
    </message>
    <message>
        <source>not enough memory for this tensor</source>
        <translation>内存不足，无法处理这个张量</translation>
    </message>
    <message>
        <source>Pick at least one scheme.</source>
        <translation>请至少选择一个方案。</translation>
    </message>
    <message>
        <source>Pick a file and one of its tensors.</source>
        <translation>请选择一个文件及其中的一个张量。</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %2 × %3 %4 · %5 elements</source>
        <translation>
            <numerusform>%1 · %2 × %3 %4 · %5 个元素</numerusform>
        </translation>
    </message>
    <message>
        <source>row %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <source>row %1, group %2</source>
        <translation>第 %1 行，第 %2 组</translation>
    </message>
    <message>
        <source>Simulating %1…</source>
        <translation>正在模拟 %1…</translation>
    </message>
    <message>
        <source>the scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>From the scenario: %1</source>
        <translation>来自场景：%1</translation>
    </message>
    <message>
        <source>From the scenario: %1 on a [%2, %3] tensor like %4 — %5.</source>
        <translation>来自场景：%1，作用于模拟 %4 的 [%2, %3] 张量 — %5。</translation>
    </message>
    <message>
        <source>the checkpoint&apos;s own</source>
        <translation>取自 checkpoint 本身</translation>
    </message>
    <message>
        <source>synthetic</source>
        <translation>合成数据</translation>
    </message>
    <message>
        <source>The weights keep their own dtype: no error.</source>
        <translation>权重保持自身的数据类型：没有误差。</translation>
    </message>
    <message>
        <source>From the scenario</source>
        <translation>来自场景</translation>
    </message>
    <message>
        <source>The explorer&apos;s weight format (scheme and group size) on a tensor shaped like one of the model&apos;s own linear layers.</source>
        <translation>把探索页的权重格式（方案和分组大小）用在与模型某个线性层同形状的张量上。</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>One decode query&apos;s attention through a 16-bit and an FP8 KV cache, token by token</source>
        <translation>一个解码查询分别经过 16 位和 FP8 KV Cache 的注意力，逐 token 显示</translation>
    </message>
</context>
<context>
    <name>kvscope::ReportPage</name>
    <message>
        <source>%1 on %2 × %3</source>
        <translation>%1 运行于 %2 × %3</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 运行于 %2</translation>
    </message>
    <message>
        <source>%8 %1 · %9 %2 · %10 %3 · batch %4 × %5 tokens · %11 %6 · %12 %7</source>
        <translation>%8 %1 · %9 %2 · %10 %3 · 批次 %4 × %5 个 token · %11 %6 · %12 %7</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>SQNR: %1. Simulated on %2.</source>
        <translation>SQNR：%1。模拟所用张量：%2。</translation>
    </message>
    <message>
        <source>SQNR: %1.</source>
        <translation>SQNR：%1。</translation>
    </message>
</context>
<context>
    <name>kvscope::ScenarioField</name>
    <message>
        <source>torch.compile cache</source>
        <translation>torch.compile 缓存</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>推理引擎</translation>
    </message>
    <message>
        <source>vLLM version</source>
        <translation>vLLM 版本</translation>
    </message>
    <message>
        <source>Data type</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>Group size</source>
        <translation>分组大小</translation>
    </message>
    <message>
        <source>KV cache dtype</source>
        <translation>KV Cache 数据类型</translation>
    </message>
    <message>
        <source>GPU memory utilization</source>
        <translation>显存利用率</translation>
    </message>
    <message>
        <source>Static memory fraction</source>
        <translation>静态显存比例</translation>
    </message>
    <message>
        <source>GPUs (TP)</source>
        <translation>GPU 数（TP）</translation>
    </message>
    <message>
        <source>Max model length</source>
        <translation>最大模型长度</translation>
    </message>
    <message>
        <source>Block size</source>
        <translation>块大小</translation>
    </message>
    <message>
        <source>SSM state dtype</source>
        <translation>SSM 状态数据类型</translation>
    </message>
    <message>
        <source>Max running sequences</source>
        <translation>最大并发序列数</translation>
    </message>
    <message>
        <source>Max batched tokens</source>
        <translation>单步最大 token 数</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Batch 大小</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Prompt length</source>
        <translation>提示长度</translation>
    </message>
    <message>
        <source>Bandwidth efficiency</source>
        <translation>带宽效率</translation>
    </message>
    <message>
        <source>Compute efficiency</source>
        <translation>计算效率</translation>
    </message>
    <message>
        <source>Request rate</source>
        <translation>请求速率</translation>
    </message>
    <message>
        <source>Pipeline stages (PP)</source>
        <translation>流水线级数 (PP)</translation>
    </message>
    <message>
        <source>KV cache memory</source>
        <translation>KV Cache 显存</translation>
    </message>
    <message>
        <source>LoRA slots</source>
        <translation>LoRA 槽位</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>KV offloading</source>
        <translation>KV 卸载</translation>
    </message>
    <message>
        <source>KV offloading backend</source>
        <translation>KV 卸载后端</translation>
    </message>
    <message>
        <source>Shared prefix</source>
        <translation>共享前缀</translation>
    </message>
    <message>
        <source>Speculative decoding</source>
        <translation>投机解码</translation>
    </message>
    <message>
        <source>Draft acceptance rate</source>
        <translation>草稿接受率</translation>
    </message>
    <message>
        <source>Data-parallel ranks (DP)</source>
        <translation>数据并行副本数（DP）</translation>
    </message>
    <message>
        <source>Expert parallelism (EP)</source>
        <translation>专家并行（EP）</translation>
    </message>
    <message>
        <source>Images per request</source>
        <translation>每请求图像数</translation>
    </message>
    <message>
        <source>Image size</source>
        <translation>图像尺寸</translation>
    </message>
    <message>
        <source>Data-parallel attention</source>
        <translation>数据并行注意力</translation>
    </message>
    <message>
        <source>Expert-parallel GPUs (EP)</source>
        <translation>专家并行 GPU 数（EP）</translation>
    </message>
    <message>
        <source>Expert load balancing (EPLB)</source>
        <translation>专家负载均衡（EPLB）</translation>
    </message>
    <message>
        <source>Redundant experts</source>
        <translation>冗余专家</translation>
    </message>
    <message>
        <source>All-to-all backend</source>
        <translation>All-to-all 后端</translation>
    </message>
    <message>
        <source>Sliding-window pool ratio</source>
        <translation>滑动窗口池比例</translation>
    </message>
    <message>
        <source>LM head per attention group</source>
        <translation>LM head 按注意力组切分</translation>
    </message>
    <message>
        <source>Dense MLP GPUs</source>
        <translation>稠密 MLP 的 GPU 数</translation>
    </message>
    <message>
        <source>LoRA dtype</source>
        <translation>LoRA 数据类型</translation>
    </message>
    <message>
        <source>LoRA adapters in host memory</source>
        <translation>主机内存中的 LoRA 适配器数</translation>
    </message>
    <message>
        <source>Fully sharded LoRA</source>
        <translation>LoRA 完全切分</translation>
    </message>
    <message>
        <source>LoRA target modules</source>
        <translation>LoRA 目标模块</translation>
    </message>
    <message>
        <source>CUDA graphs up to</source>
        <translation>CUDA 图最大批量</translation>
    </message>
    <message>
        <source>Eager mode (no CUDA graphs)</source>
        <translation>Eager 模式（不用 CUDA graph）</translation>
    </message>
    <message>
        <source>MXFP8 MoE activations</source>
        <translation>MoE 激活用 MXFP8</translation>
    </message>
</context>
<context>
    <name>kvscope::ScenarioStrip</name>
    <message>
        <source>%1
batch %2 × %3 tokens
Page Up / Page Down step through the strip.</source>
        <translation>%1
批次 %2 × %3 个 token
Page Up / Page Down 在场景条中切换。</translation>
    </message>
    <message>
        <source>Remove from the strip</source>
        <translation>从场景条中移除</translation>
    </message>
    <message>
        <source>Scenarios:</source>
        <translation>场景：</translation>
    </message>
    <message>
        <source>none saved yet</source>
        <translation>尚未保存</translation>
    </message>
    <message>
        <source>+ Add this scenario</source>
        <translation>+ 添加此场景</translation>
    </message>
    <message>
        <source>Keep the scenario on screen as a chip, to come back to it (Ctrl+D). In presentation mode (F5) Page Up / Page Down step through the chips.</source>
        <translation>把当前场景保存为一个标签，以便随时回到它（Ctrl+D）。在演示模式（F5）下用 Page Up / Page Down 在标签间切换。</translation>
    </message>
</context>
<context>
    <name>kvscope::SchemePicker</name>
    <message>
        <source>Schemes</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>INT group</source>
        <translation>INT 分组</translation>
    </message>
    <message>
        <source>Bins</source>
        <translation>分箱数</translation>
    </message>
    <message>
        <source>FP8 saturates (vLLM)</source>
        <translation>FP8 饱和截断（vLLM）</translation>
    </message>
    <message>
        <source>Off: overflow becomes NaN (E4M3) or ±inf (E5M2), as ml_dtypes converts</source>
        <translation>关闭时：溢出变为 NaN（E4M3）或 ±inf（E5M2），与 ml_dtypes 的转换一致</translation>
    </message>
    <message>
        <source>FP8 scale fixed at 1.0</source>
        <translation>FP8 scale 固定为 1.0</translation>
    </message>
    <message>
        <source>vLLM&apos;s default KV-cache scale: small values fall into subnormals or to zero</source>
        <translation>vLLM 默认的 KV Cache scale：较小的值会落入次正规数或变为零</translation>
    </message>
    <message>
        <source>row</source>
        <translation>行</translation>
    </message>
</context>
<context>
    <name>kvscope::SourcePicker</name>
    <message>
        <source>Gaussian weights</source>
        <translation>高斯分布权重</translation>
    </message>
    <message>
        <source>Laplace weights</source>
        <translation>拉普拉斯分布权重</translation>
    </message>
    <message>
        <source>Student-t weights (5 dof)</source>
        <translation>Student-t 分布权重（自由度 5）</translation>
    </message>
    <message>
        <source>Activations with outlier channels</source>
        <translation>带离群通道的激活</translation>
    </message>
    <message>
        <source>Open a tensor file</source>
        <translation>打开张量文件</translation>
    </message>
    <message>
        <source>Tensors (*.safetensors *.npy);;All files (*)</source>
        <translation>张量 (*.safetensors *.npy);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>Synthetic</source>
        <translation>合成</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>Standard deviation: 0.02 for weights (LlamaConfig.initializer_range), 1 for activations</source>
        <translation>标准差：权重为 0.02（LlamaConfig.initializer_range），激活为 1</translation>
    </message>
    <message>
        <source>.safetensors or .npy</source>
        <translation>.safetensors 或 .npy</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Rows × cols</source>
        <translation>行 × 列</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Std</source>
        <translation>标准差</translation>
    </message>
</context>
<context>
    <name>kvscope::Speculative</name>
    <message>
        <source>MTP: the checkpoint&apos;s own layers</source>
        <translation>MTP：检查点自带的层</translation>
    </message>
    <message>
        <source>n-gram: drafts from the prompt</source>
        <translation>n-gram：从 prompt 中取草稿</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>draft model: %1</source>
        <translation>草稿模型：%1</translation>
    </message>
</context>
<context>
    <name>kvscope::SpeedCalibrationDialog</name>
    <message>
        <source>Forget calibration</source>
        <translation>清除校准</translation>
    </message>
    <message>
        <source>Calibrate speed to your measurement</source>
        <translation>按实测校准速度</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个 token</translation>
    </message>
    <message>
        <source>Import vllm bench serve result…</source>
        <translation>导入 vllm bench serve 结果…</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Measured inter-token latency</source>
        <translation>实测 token 间延迟</translation>
    </message>
    <message>
        <source>Concurrency (sequences decoding)</source>
        <translation>并发（同时解码的序列数）</translation>
    </message>
    <message>
        <source>Context per sequence</source>
        <translation>每个序列的上下文</translation>
    </message>
    <message>
        <source>One number is fitted: a scale on both bandwidth efficiencies of this GPU, so that the model&apos;s decode step at this concurrency and context equals your measurement. Use the median inter-token latency; every later plan on this GPU uses it.</source>
        <translation>只拟合一个数：该 GPU 两项带宽效率的共同缩放系数，使模型在此并发和上下文下的解码步长等于你的实测值。请使用 token 间延迟的中位数；此后该 GPU 上的所有规划都会使用它。</translation>
    </message>
    <message>
        <source>Measurement</source>
        <translation>实测值</translation>
    </message>
    <message>
        <source>%1: weights at %2 % of the datasheet bandwidth (public calibration %3 %); this scenario&apos;s step %4 ms</source>
        <translation>%1：权重读取达到规格带宽的 %2 %（公开校准为 %3 %）；本场景的解码步长为 %4 ms</translation>
    </message>
    <message>
        <source>Import vllm bench serve result</source>
        <translation>导入 vllm bench serve 结果</translation>
    </message>
    <message>
        <source>Benchmark results (*.json);;All files (*)</source>
        <translation>基准测试结果 (*.json);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>kvscope::SpeedChartView</name>
    <message>
        <source>Batch size (sequences, log scale)</source>
        <translation>Batch 大小（序列数，对数刻度）</translation>
    </message>
    <message>
        <source>KV %1</source>
        <translation>KV %1</translation>
    </message>
    <message>
        <source>%1 (current)</source>
        <translation>%1（当前）</translation>
    </message>
    <message>
        <source>ideal roofline (efficiencies 1)</source>
        <translation>理想 Roofline（效率为 1）</translation>
    </message>
    <message>
        <source>ridge point: compute-bound from here</source>
        <translation>拐点：从这里起受算力限制</translation>
    </message>
    <message>
        <source>current batch</source>
        <translation>当前 Batch</translation>
    </message>
    <message>
        <source>batch %1: %2 tokens/s</source>
        <translation>Batch %1：%2 tokens/s</translation>
    </message>
    <message>
        <source>No speed figures: %1</source>
        <translation>没有速度数据：%1</translation>
    </message>
    <message>
        <source>compute-bound from batch %1</source>
        <translation>从 Batch %1 起受算力限制</translation>
    </message>
    <message>
        <source>KV cache fits up to batch %1</source>
        <translation>KV Cache 最多放得下 Batch %1</translation>
    </message>
    <message>
        <source>memory-bound at every batch at this length</source>
        <translation>在此长度下任何 Batch 都受显存带宽限制</translation>
    </message>
    <message>
        <source>compute-bound from batch %1, past the axis</source>
        <translation>从 Batch %1 起受算力限制，超出坐标轴</translation>
    </message>
    <message>
        <source>Decode tokens/s of all sequences vs batch size (%1 tokens each)</source>
        <translation>全部序列的解码 tokens/s 与 Batch 大小（每条 %1 个 token）</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>tokens/s</translation>
    </message>
    <message>
        <source>serving that many users: %1-token prompts, %2 out (average context %3)</source>
        <translation>服务这么多用户：%1 token 的提示词，输出 %2（平均上下文 %3）</translation>
    </message>
    <message>
        <source>with the drafter: %1 drafts a step, each accepted with p = %2</source>
        <translation>使用草稿模型：每步 %1 个草稿，每个被接受的概率 p = %2</translation>
    </message>
</context>
<context>
    <name>kvscope::SpeedPanel</name>
    <message>
        <source>memory-bound</source>
        <translation>受显存带宽限制</translation>
    </message>
    <message>
        <source>compute-bound</source>
        <translation>受算力限制</translation>
    </message>
    <message>
        <source>Decode, all sequences</source>
        <translation>解码，全部序列</translation>
    </message>
    <message>
        <source>Decode, per sequence</source>
        <translation>解码，每条序列</translation>
    </message>
    <message>
        <source>Time to first token</source>
        <translation>首 token 时延</translation>
    </message>
    <message>
        <source>Decode is</source>
        <translation>解码瓶颈</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 tokens/s</translation>
    </message>
    <message>
        <source>ideal %1 tokens/s · %2 sequences × %3 tokens · a step every %4</source>
        <translation>理想 %1 tokens/s · %2 条序列 × %3 个 token · 每 %4 一步</translation>
    </message>
    <message>
        <source>one token every %1; ideal every %2</source>
        <translation>每 %1 一个 token；理想为每 %2</translation>
    </message>
    <message>
        <source>a %1-token prompt alone, %2; ideal %3</source>
        <translation>单独一个 %1 token 的 prompt，%2；理想 %3</translation>
    </message>
    <message>
        <source>compute-bound from batch %1 (ideal %2)</source>
        <translation>从 Batch %1 起受算力限制（理想 %2）</translation>
    </message>
    <message>
        <source>memory-bound at any batch at this length</source>
        <translation>在此长度下任何 Batch 都受显存带宽限制</translation>
    </message>
    <message>
        <source>%1 · %2 %3 TFLOPS%4, %5 GB/s · efficiencies %6 / %7</source>
        <translation>%1 · %2 %3 TFLOPS%4，%5 GB/s · 效率 %6 / %7</translation>
    </message>
    <message>
        <source> (weights dequantized)</source>
        <translation>（权重反量化）</translation>
    </message>
    <message>
        <source> · calibrated from your measurement</source>
        <translation> · 已按你的实测校准</translation>
    </message>
    <message>
        <source>%1 users (the KV cache holds %1 of the %2 at once)</source>
        <translation>%1 个用户（KV Cache 一次只能容纳 %2 个中的 %1 个）</translation>
    </message>
    <message>
        <source>%1 users</source>
        <translation>%1 个用户</translation>
    </message>
    <message>
        <source>Serving %1, each a %2-token prompt and %3 tokens out</source>
        <translation>服务 %1，每个请求 %2 token 的提示词、输出 %3 token</translation>
    </message>
    <message>
        <source>a token every %1 on average (%2 % of steps also prefill another prompt) · first token after %3 · a request takes %4</source>
        <translation>平均每 %1 一个 token（%2 % 的步骤同时预填充其他提示词）· 首 token 需 %3 · 一个请求耗时 %4</translation>
    </message>
    <message>
        <source>speed for %1 sequences: the KV cache holds %1 of %2</source>
        <translation>按 %1 条序列计算的速度：KV 缓存只能容纳 %2 条中的 %1 条</translation>
    </message>
    <message>
        <source>Serving %1 requests a second, each a %2-token prompt and %3 tokens out</source>
        <translation>以每秒 %1 个请求服务，每个请求为 %2 token 的 prompt 和 %3 个输出 token</translation>
    </message>
    <message>
        <source>saturated</source>
        <translation>已饱和</translation>
    </message>
    <message>
        <source>with %1 in flight (what the KV cache and the engine run at once) it completes %2 requests a second, %3 tokens/s; the rest queue, so first tokens wait longer and longer</source>
        <translation>在途 %1 个请求时（KV Cache 和引擎同时能运行的数量）每秒完成 %2 个请求，%3 tokens/s；其余请求排队，首 token 的等待越来越长</translation>
    </message>
    <message>
        <source>%1 requests in flight on average · a token every %2 · first token after %3 · a request takes %4</source>
        <translation>平均在途 %1 个请求 · 每 %2 一个 token · 首 token 在 %3 后 · 一个请求耗时 %4</translation>
    </message>
    <message>
        <source>it pays at every batch</source>
        <translation>任何 Batch 下都划算</translation>
    </message>
    <message>
        <source>it stops paying from %1 sequences, where verifying costs more than the drafts yield</source>
        <translation>从 %1 条序列起不再划算：验证的开销超过草稿带来的收益</translation>
    </message>
    <message>
        <source>With the drafter: %1 drafts a step, each accepted with p = %2</source>
        <translation>使用草稿模型：每步 %1 个草稿，每个被接受的概率 p = %2</translation>
    </message>
    <message>
        <source>%1 tokens/s · %2×</source>
        <translation>%1 tokens/s · %2×</translation>
    </message>
    <message>
        <source>%1 tokens a step in %2: the model verifies in %3, the drafter proposes in %4 × %5 · %6</source>
        <translation>每步 %1 个 token，用时 %2：主模型验证 %3，草稿模型提议 %4 × %5 · %6</translation>
    </message>
    <message>
        <source>a %1-token prompt alone, %2 of its tokens from the prefix cache, %3; ideal %4</source>
        <translation>单独一个 %1 token 的 prompt，其中 %2 个 token 来自前缀缓存，%3；理想 %4</translation>
    </message>
    <message>
        <source>%1 ranks of %2 sequences, a step each at once</source>
        <translation>%1 个 rank，各 %2 条序列，同时各走一步</translation>
    </message>
    <message>
        <source>%1 batches of %2 sequences in flight, one a stage</source>
        <translation>%1 个在途批次，每批 %2 个序列，每级一个</translation>
    </message>
</context>
<context>
    <name>kvscope::SqnrChart</name>
    <message>
        <source>SQNR by scheme</source>
        <translation>各方案的 SQNR</translation>
    </message>
    <message>
        <source>dB, higher is better</source>
        <translation>dB，越高越好</translation>
    </message>
    <message>
        <source>SQNR dB</source>
        <translation>SQNR dB</translation>
    </message>
</context>
<context>
    <name>kvscope::StepBreakdownChartView</name>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Where the time goes, per GPU</source>
        <translation>时间花在哪里（每 GPU）</translation>
    </message>
    <message>
        <source>Decode step, %1 sequences</source>
        <translation>解码步，%1 条序列</translation>
    </message>
    <message>
        <source>First token, a %1-token prompt</source>
        <translation>首个 token，%1 token 的提示词</translation>
    </message>
    <message>
        <source>First token</source>
        <translation>首个 token</translation>
    </message>
    <message>
        <source>Decode step</source>
        <translation>解码步</translation>
    </message>
    <message>
        <source>No speed figures: %1</source>
        <translation>没有速度数据：%1</translation>
    </message>
</context>
<context>
    <name>kvscope::StepTerm</name>
    <message>
        <source>Weights read</source>
        <translation>读取权重</translation>
    </message>
    <message>
        <source>Dequantization</source>
        <translation>反量化</translation>
    </message>
    <message>
        <source>KV cache read</source>
        <translation>读取 KV 缓存</translation>
    </message>
    <message>
        <source>KV dequantization</source>
        <translation>KV 反量化</translation>
    </message>
    <message>
        <source>Compute beyond the reads</source>
        <translation>读取之外的计算</translation>
    </message>
    <message>
        <source>Tensor-parallel all-reduce</source>
        <translation>张量并行 all-reduce</translation>
    </message>
    <message>
        <source>MoE routing</source>
        <translation>MoE 路由</translation>
    </message>
    <message>
        <source>Engine, per step</source>
        <translation>引擎开销（每步）</translation>
    </message>
    <message>
        <source>Engine, per sequence</source>
        <translation>引擎开销（每条序列）</translation>
    </message>
    <message>
        <source>Engine, per new request</source>
        <translation>引擎开销（每个新请求）</translation>
    </message>
    <message>
        <source>Vision encoder</source>
        <translation>视觉编码器</translation>
    </message>
    <message>
        <source>Token exchange between ranks</source>
        <translation>rank 间 token 交换</translation>
    </message>
    <message>
        <source>Pipeline stage handover</source>
        <translation>流水线级间传递</translation>
    </message>
    <message>
        <source>Wait for the busiest stage</source>
        <translation>等待最忙的一级</translation>
    </message>
</context>
<context>
    <name>kvscope::Units</name>
    <message>
        <source>Units: GiB = 2^30 bytes, MiB = 2^20 bytes; bytes are per GPU unless marked total.</source>
        <translation>单位：GiB = 2^30 字节，MiB = 2^20 字节；除标明总计外，字节数均为每块 GPU。</translation>
    </message>
</context>
<context>
    <name>kvscope::ValuesChart</name>
    <message>
        <source>Values and quantization grid</source>
        <translation>数值与量化网格</translation>
    </message>
    <message>
        <source>value w</source>
        <translation>数值 w</translation>
    </message>
    <message>
        <source>values</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>grid of %1: too dense to draw</source>
        <translation>%1 的网格：过密，无法绘制</translation>
    </message>
    <message>
        <source>grid of %1</source>
        <translation>%1 的网格</translation>
    </message>
</context>
<context>
    <name>kvscope::WindowActions</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Copy figures</source>
        <translation>复制数据(&amp;C)</translation>
    </message>
    <message>
        <source>Copy plan as &amp;JSON</source>
        <translation>以 JSON 复制结果(&amp;J)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Growth chart: sequence length / batch size</source>
        <translation>增长图：序列长度 / Batch 大小</translation>
    </message>
    <message>
        <source>Next KV precision (FP32 → FP16/BF16 → FP8)</source>
        <translation>下一个 KV 精度（FP32 → FP16/BF16 → FP8）</translation>
    </message>
    <message>
        <source>&amp;Full screen</source>
        <translation>全屏(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;About kvscope</source>
        <translation>关于 kvscope(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Open model (config.json, .gguf)…</source>
        <translation>打开模型(&amp;O)（config.json、.gguf）…</translation>
    </message>
    <message>
        <source>Open model &amp;folder…</source>
        <translation>打开模型文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;Paste config.json…</source>
        <translation>粘贴 config.json(&amp;P)…</translation>
    </message>
    <message>
        <source>Add c&amp;ustom GPU…</source>
        <translation>添加自定义 GPU(&amp;U)…</translation>
    </message>
    <message>
        <source>&amp;Explorer</source>
        <translation>探索(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Quantization simulator</source>
        <translation>量化模拟器(&amp;Q)</translation>
    </message>
    <message>
        <source>Op&amp;en scenario (.kvscope)…</source>
        <translation>打开场景(&amp;E)（.kvscope）…</translation>
    </message>
    <message>
        <source>&amp;Save scenario</source>
        <translation>保存场景(&amp;S)</translation>
    </message>
    <message>
        <source>Save scenario &amp;as…</source>
        <translation>场景另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Expor&amp;t report (PNG, PDF)…</source>
        <translation>导出报告(&amp;T)（PNG、PDF）…</translation>
    </message>
    <message>
        <source>Export fi&amp;gures (CSV, JSON)…</source>
        <translation>导出数据(&amp;G)（CSV、JSON）…</translation>
    </message>
    <message>
        <source>&amp;Recent files</source>
        <translation>最近的文件(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Compare precisions</source>
        <translation>对比精度(&amp;C)</translation>
    </message>
    <message>
        <source>F&amp;ormula panel</source>
        <translation>公式面板(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Add scenario to the strip</source>
        <translation>把场景加入场景条(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Zoom &amp;in (presentation)</source>
        <translation>放大（演示）(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom o&amp;ut (presentation)</source>
        <translation>缩小（演示）(&amp;U)</translation>
    </message>
    <message>
        <source>Zoom to 100 % (presentation)</source>
        <translation>缩放到 100 %（演示）</translation>
    </message>
    <message>
        <source>Previous scenario of the strip (presentation)</source>
        <translation>场景条中的上一个场景（演示）</translation>
    </message>
    <message>
        <source>Next scenario of the strip (presentation)</source>
        <translation>场景条中的下一个场景（演示）</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;What do I need…</source>
        <translation>我需要什么(&amp;W)…</translation>
    </message>
    <message>
        <source>Calibrate spee&amp;d to your measurement…</source>
        <translation>按实测校准速度(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Explain a start-up log…</source>
        <translation>解释启动日志(&amp;E)…</translation>
    </message>
    <message>
        <source>Read a vLLM start-up log, plan what it describes and say where each GiB went (also: drop a .log or .txt file on the window).</source>
        <translation>读取 vLLM 启动日志，规划其中的场景并说明每个 GiB 的去向（也可以把 .log 或 .txt 文件拖到窗口上）。</translation>
    </message>
</context>
<context>
    <name>kvscope::units</name>
    <message>
        <source>×%1 the budget</source>
        <translation>预算的 %1 倍</translation>
    </message>
</context>
</TS>
