//! The BERT encoder of all-MiniLM-L6-v2 (6 layers, 384 wide, 12 heads, GELU feed-forward of
//! 1536) and its forward pass, plus mean pooling and L2 normalisation: token ids in, one unit
//! vector of 384 per sequence out.
//!
//! Sequences of a batch are laid end to end (no padding): the dense layers run over all their
//! tokens at once, attention runs per sequence over its own tokens. That computes what padding
//! to the longest sequence plus the attention mask computes, without the padded work.

use safetensors::{Dtype, SafeTensors};

use crate::error::EmbedError;
use crate::kernels::{Backend, Operand, Packed};

pub const HIDDEN: usize = 384;
const HEADS: usize = 12;
const HEAD_DIM: usize = HIDDEN / HEADS;
const FFN: usize = 1536;
const LAYERS: usize = 6;
const MAX_POSITIONS: usize = 512;

struct Dense {
    weight: Packed,
    bias: Vec<f32>,
}

struct Layer {
    /// Query, key and value projections as one product (1152 outputs); the query part is
    /// pre-scaled by 1/sqrt(head width 32), so the scores need no scaling.
    qkv: Dense,
    attention_out: Dense,
    attention_norm: (Vec<f32>, Vec<f32>),
    intermediate: Dense,
    output: Dense,
    output_norm: (Vec<f32>, Vec<f32>),
}

pub(crate) struct Encoder {
    backend: Backend,
    word: Vec<f32>,
    position: Vec<f32>,
    token_type: Vec<f32>,
    embedding_norm: (Vec<f32>, Vec<f32>),
    layers: Vec<Layer>,
}

/// Buffers reused across calls, so that a forward pass allocates nothing in steady state.
#[derive(Default)]
pub(crate) struct Scratch {
    x: Vec<f32>,
    qkv: Vec<f32>,
    context: Vec<f32>,
    hidden: Vec<f32>,
    ffn: Vec<f32>,
    scores: Vec<f32>,
    operand: Operand,
}

fn tensor(st: &SafeTensors<'_>, name: &str, shape: &[usize]) -> Result<Vec<f32>, EmbedError> {
    let invalid = |message: String| EmbedError::InvalidModel {
        file: "model.safetensors".into(),
        message,
    };
    let view = st
        .tensor(name)
        .map_err(|e| invalid(format!("{name}: {e}")))?;
    if view.dtype() != Dtype::F32 || view.shape() != shape {
        return Err(invalid(format!(
            "{name}: expected F32 {shape:?}, found {:?} {:?}",
            view.dtype(),
            view.shape()
        )));
    }
    Ok(view
        .data()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect())
}

impl Encoder {
    pub(crate) fn load(safetensors: &[u8], backend: Backend) -> Result<Self, EmbedError> {
        let st = SafeTensors::deserialize(safetensors).map_err(|e| EmbedError::InvalidModel {
            file: "model.safetensors".into(),
            message: e.to_string(),
        })?;
        let norm = |prefix: &str| -> Result<(Vec<f32>, Vec<f32>), EmbedError> {
            Ok((
                tensor(&st, &format!("{prefix}.LayerNorm.weight"), &[HIDDEN])?,
                tensor(&st, &format!("{prefix}.LayerNorm.bias"), &[HIDDEN])?,
            ))
        };
        let dense = |name: &str, out: usize, inp: usize, scale: f32| -> Result<Dense, EmbedError> {
            let w: Vec<f32> = tensor(&st, &format!("{name}.weight"), &[out, inp])?
                .into_iter()
                .map(|v| v * scale)
                .collect();
            let bias = tensor(&st, &format!("{name}.bias"), &[out])?;
            Ok(Dense {
                weight: backend.pack_weights(&w, 1, inp, inp, out),
                bias: bias.into_iter().map(|b| b * scale).collect(),
            })
        };
        let mut layers = Vec::with_capacity(LAYERS);
        for l in 0..LAYERS {
            let p = format!("encoder.layer.{l}");
            let mut w = Vec::with_capacity(3 * HIDDEN * HIDDEN);
            let mut bias = Vec::with_capacity(3 * HIDDEN);
            let query_scale = 1.0 / (HEAD_DIM as f32).sqrt();
            for (part, scale) in [("query", query_scale), ("key", 1.0), ("value", 1.0)] {
                let name = format!("{p}.attention.self.{part}");
                w.extend(
                    tensor(&st, &format!("{name}.weight"), &[HIDDEN, HIDDEN])?
                        .into_iter()
                        .map(|v| v * scale),
                );
                bias.extend(
                    tensor(&st, &format!("{name}.bias"), &[HIDDEN])?
                        .into_iter()
                        .map(|v| v * scale),
                );
            }
            layers.push(Layer {
                qkv: Dense {
                    weight: backend.pack_weights(&w, 1, HIDDEN, HIDDEN, 3 * HIDDEN),
                    bias,
                },
                attention_out: dense(&format!("{p}.attention.output.dense"), HIDDEN, HIDDEN, 1.0)?,
                attention_norm: norm(&format!("{p}.attention.output"))?,
                intermediate: dense(&format!("{p}.intermediate.dense"), FFN, HIDDEN, 1.0)?,
                output: dense(&format!("{p}.output.dense"), HIDDEN, FFN, 1.0)?,
                output_norm: norm(&format!("{p}.output"))?,
            });
        }
        Ok(Self {
            backend,
            word: tensor(&st, "embeddings.word_embeddings.weight", &[30522, HIDDEN])?,
            position: tensor(
                &st,
                "embeddings.position_embeddings.weight",
                &[MAX_POSITIONS, HIDDEN],
            )?,
            token_type: tensor(&st, "embeddings.token_type_embeddings.weight", &[2, HIDDEN])?,
            embedding_norm: norm("embeddings")?,
            layers,
        })
    }

    pub(crate) fn backend(&self) -> Backend {
        self.backend
    }

    /// Bytes held by the weights.
    pub(crate) fn weight_bytes(&self) -> usize {
        let dense = |d: &Dense| d.weight.bytes() + d.bias.len() * 4;
        (self.word.len() + self.position.len() + self.token_type.len()) * 4
            + self
                .layers
                .iter()
                .map(|l| {
                    dense(&l.qkv)
                        + dense(&l.attention_out)
                        + dense(&l.intermediate)
                        + dense(&l.output)
                })
                .sum::<usize>()
    }

    /// One unit vector per sequence. Each sequence is non-empty, at most 512 ids (the caller
    /// keeps them at 256), and begins with `[CLS]` and ends with `[SEP]`.
    pub(crate) fn embed(&self, sequences: &[&[u32]], s: &mut Scratch) -> Vec<[f32; HIDDEN]> {
        if !self.forward(sequences, s) {
            return Vec::new();
        }
        let mut out = Vec::with_capacity(sequences.len());
        let mut offset = 0;
        for seq in sequences {
            out.push(mean_pooled(
                &s.x[offset * HIDDEN..(offset + seq.len()) * HIDDEN],
            ));
            offset += seq.len();
        }
        out
    }

    /// Per sequence, the mean-pooled unit vector (what [`Encoder::embed`] gives) and one unit
    /// vector per token of the last layer, `[CLS]` and `[SEP]` included: the contextual vectors
    /// that token alignment (BERTScore-style) compares.
    pub(crate) fn embed_tokens(
        &self,
        sequences: &[&[u32]],
        s: &mut Scratch,
    ) -> Vec<([f32; HIDDEN], Vec<[f32; HIDDEN]>)> {
        if !self.forward(sequences, s) {
            return Vec::new();
        }
        let mut out = Vec::with_capacity(sequences.len());
        let mut offset = 0;
        for seq in sequences {
            let rows = &s.x[offset * HIDDEN..(offset + seq.len()) * HIDDEN];
            let tokens = rows.chunks_exact(HIDDEN).map(unit).collect();
            out.push((mean_pooled(rows), tokens));
            offset += seq.len();
        }
        out
    }

    /// The forward pass: leaves the last layer's rows, sequences end to end, in `s.x`. False
    /// when there is no token at all.
    fn forward(&self, sequences: &[&[u32]], s: &mut Scratch) -> bool {
        let total: usize = sequences.iter().map(|q| q.len()).sum();
        if total == 0 {
            return false;
        }
        let be = self.backend;
        s.x.resize(total * HIDDEN, 0.0);
        s.qkv.resize(total * 3 * HIDDEN, 0.0);
        s.context.resize(total * HIDDEN, 0.0);
        s.hidden.resize(total * HIDDEN, 0.0);
        s.ffn.resize(total * FFN, 0.0);

        let mut t = 0;
        for seq in sequences {
            assert!(
                seq.len() <= MAX_POSITIONS,
                "sequence longer than the model's positions"
            );
            for (pos, &id) in seq.iter().enumerate() {
                let word = &self.word[id as usize * HIDDEN..][..HIDDEN];
                let position = &self.position[pos * HIDDEN..][..HIDDEN];
                let row = &mut s.x[t * HIDDEN..][..HIDDEN];
                for (((x, w), p), ty) in row
                    .iter_mut()
                    .zip(word)
                    .zip(position)
                    .zip(&self.token_type[..HIDDEN])
                {
                    *x = w + p + ty;
                }
                t += 1;
            }
        }
        self.backend.layer_norm(
            &mut s.x,
            HIDDEN,
            &self.embedding_norm.0,
            &self.embedding_norm.1,
        );

        for layer in &self.layers {
            be.matmul(
                &s.x,
                HIDDEN,
                total,
                &layer.qkv.weight,
                Some(&layer.qkv.bias),
                &mut s.qkv,
                3 * HIDDEN,
                &mut s.operand,
            );
            let mut offset = 0;
            for seq in sequences {
                self.attention(offset, seq.len(), s);
                offset += seq.len();
            }
            be.matmul(
                &s.context,
                HIDDEN,
                total,
                &layer.attention_out.weight,
                Some(&layer.attention_out.bias),
                &mut s.hidden,
                HIDDEN,
                &mut s.operand,
            );
            for (h, x) in s.hidden.iter_mut().zip(&s.x) {
                *h += x;
            }
            be.layer_norm(
                &mut s.hidden,
                HIDDEN,
                &layer.attention_norm.0,
                &layer.attention_norm.1,
            );
            be.matmul(
                &s.hidden,
                HIDDEN,
                total,
                &layer.intermediate.weight,
                Some(&layer.intermediate.bias),
                &mut s.ffn,
                FFN,
                &mut s.operand,
            );
            be.gelu(&mut s.ffn);
            be.matmul(
                &s.ffn,
                FFN,
                total,
                &layer.output.weight,
                Some(&layer.output.bias),
                &mut s.x,
                HIDDEN,
                &mut s.operand,
            );
            for (x, h) in s.x.iter_mut().zip(&s.hidden) {
                *x += h;
            }
            be.layer_norm(&mut s.x, HIDDEN, &layer.output_norm.0, &layer.output_norm.1);
        }
        true
    }

    /// Self-attention of the `len` tokens from `offset`: reads `s.qkv`, writes `s.context`.
    fn attention(&self, offset: usize, len: usize, s: &mut Scratch) {
        let be = self.backend;
        let ld = 3 * HIDDEN;
        s.scores.resize(len * len, 0.0);
        for h in 0..HEADS {
            let q = &s.qkv[offset * ld + h * HEAD_DIM..];
            let k_base = offset * ld + HIDDEN + h * HEAD_DIM;
            let v_base = offset * ld + 2 * HIDDEN + h * HEAD_DIM;
            let qkv = &s.qkv;
            let keys = be.pack(&qkv[k_base..], 1, ld, HEAD_DIM, len);
            be.matmul(q, ld, len, &keys, None, &mut s.scores, len, &mut s.operand);
            be.softmax_rows(&mut s.scores, len, len);
            let values = be.pack(&qkv[v_base..], ld, 1, len, HEAD_DIM);
            let out = &mut s.context[offset * HIDDEN + h * HEAD_DIM..];
            be.matmul(
                &s.scores,
                len,
                len,
                &values,
                None,
                out,
                HIDDEN,
                &mut s.operand,
            );
        }
    }
}

/// The mean of `rows` (each [`HIDDEN`] wide), L2-normalised: sentence-transformers' pooling.
fn mean_pooled(rows: &[f32]) -> [f32; HIDDEN] {
    let mut v = [0f64; HIDDEN];
    for row in rows.chunks_exact(HIDDEN) {
        for (acc, x) in v.iter_mut().zip(row) {
            *acc += *x as f64;
        }
    }
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt().max(1e-12);
    let mut unit = [0f32; HIDDEN];
    for (u, x) in unit.iter_mut().zip(&v) {
        *u = (x / norm) as f32;
    }
    unit
}

/// One row, L2-normalised.
fn unit(row: &[f32]) -> [f32; HIDDEN] {
    let norm = row
        .iter()
        .map(|x| f64::from(*x) * f64::from(*x))
        .sum::<f64>()
        .sqrt()
        .max(1e-12);
    let mut out = [0f32; HIDDEN];
    for (u, x) in out.iter_mut().zip(row) {
        *u = (f64::from(*x) / norm) as f32;
    }
    out
}
