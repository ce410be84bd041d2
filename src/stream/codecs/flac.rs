//! FLAC in Ogg (the Ogg FLAC mapping, xiph.org/flac/ogg_mapping.html) as a publisher
//! sends it: the first packet carries the STREAMINFO, the next ones the other metadata
//! blocks, then every packet is one FLAC frame. The frames are kept byte for byte (the
//! lossless rendition is a remux); their headers are read for the block size, and both
//! CRCs are checked so that a damaged frame never reaches a listener's decoder.

use bytes::Bytes;

use crate::stream::codecs::ogg::OggReader;

/// The STREAMINFO metadata block's body (34 bytes), what `dfLa` carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamInfo {
    pub raw: [u8; 34],
}

impl StreamInfo {
    pub fn parse(body: &[u8]) -> Option<Self> {
        let raw: [u8; 34] = body.get(..34)?.try_into().ok()?;
        let info = Self { raw };
        (info.sample_rate() > 0 && info.min_block() >= 16).then_some(info)
    }
    pub fn min_block(&self) -> u16 {
        u16::from_be_bytes([self.raw[0], self.raw[1]])
    }
    pub fn max_block(&self) -> u16 {
        u16::from_be_bytes([self.raw[2], self.raw[3]])
    }
    /// 20 bits after the block and frame sizes.
    pub fn sample_rate(&self) -> u32 {
        (u32::from(self.raw[10]) << 12)
            | (u32::from(self.raw[11]) << 4)
            | (u32::from(self.raw[12]) >> 4)
    }
    pub fn channels(&self) -> u8 {
        ((self.raw[12] >> 1) & 0x07) + 1
    }
    pub fn bits_per_sample(&self) -> u8 {
        (((self.raw[12] & 0x01) << 4) | (self.raw[13] >> 4)) + 1
    }
}

/// One FLAC frame, untouched, and how many samples (per channel) it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlacFrame {
    pub data: Bytes,
    pub samples: u32,
}

/// CRC-8 of a frame header: polynomial 0x07, initial 0.
fn crc8(data: &[u8]) -> u8 {
    data.iter().fold(0u8, |mut crc, &b| {
        crc ^= b;
        for _ in 0..8 {
            crc = if crc & 0x80 != 0 {
                (crc << 1) ^ 0x07
            } else {
                crc << 1
            };
        }
        crc
    })
}

/// CRC-16 of a whole frame: polynomial 0x8005, initial 0.
fn crc16(data: &[u8]) -> u16 {
    data.iter().fold(0u16, |mut crc, &b| {
        crc ^= u16::from(b) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x8005
            } else {
                crc << 1
            };
        }
        crc
    })
}

/// The block size of a frame, from its header, when the header and the frame's CRCs hold
/// and the frame agrees with the stream's STREAMINFO (rate and channels changing
/// mid-stream would need a new init segment, which a live rendition cannot get).
pub fn frame_samples(frame: &[u8], info: &StreamInfo) -> Option<u32> {
    if frame.len() < 6 || frame[0] != 0xFF || frame[1] & 0xFE != 0xF8 {
        return None;
    }
    let block_code = frame[2] >> 4;
    let rate_code = frame[2] & 0x0F;
    let channel_code = frame[3] >> 4;
    // The coded frame or sample number: UTF-8-like, 1 to 7 bytes.
    let lead = frame[4];
    let extra = match lead.leading_ones() {
        0 => 0,
        n @ 2..=7 => n as usize - 1,
        _ => return None,
    };
    let mut at = 5 + extra;
    let mut take = |n: usize| -> Option<u32> {
        let v = frame
            .get(at..at + n)?
            .iter()
            .fold(0u32, |v, &b| (v << 8) | u32::from(b));
        at += n;
        Some(v)
    };
    let samples = match block_code {
        0 => return None,
        1 => 192,
        2..=5 => 576 << (block_code - 2),
        6 => take(1)? + 1,
        7 => take(2)? + 1,
        _ => 256 << (block_code - 8),
    };
    let rate = match rate_code {
        0 => info.sample_rate(),
        1 => 88_200,
        2 => 176_400,
        3 => 192_000,
        4 => 8_000,
        5 => 16_000,
        6 => 22_050,
        7 => 24_000,
        8 => 32_000,
        9 => 44_100,
        10 => 48_000,
        11 => 96_000,
        12 => take(1)? * 1000,
        13 => take(2)?,
        14 => take(2)? * 10,
        _ => return None,
    };
    let channels = match channel_code {
        0..=7 => channel_code + 1,
        8..=10 => 2,
        _ => return None,
    };
    let crc_at = at;
    if *frame.get(crc_at)? != crc8(&frame[..crc_at]) {
        return None;
    }
    let n = frame.len();
    if crc16(&frame[..n - 2]) != u16::from_be_bytes([frame[n - 2], frame[n - 1]]) {
        return None;
    }
    (rate == info.sample_rate() && channels == info.channels()).then_some(samples)
}

/// What [`OggFlac::push`] found.
#[derive(Debug, Default)]
pub struct Demuxed {
    pub frames: Vec<FlacFrame>,
    /// Packets that were not a valid frame of the stream (left out).
    pub rejected: usize,
}

/// Ogg FLAC bytes in, the STREAMINFO and FLAC frames out.
#[derive(Debug, Default)]
pub struct OggFlac {
    ogg: OggReader,
    info: Option<StreamInfo>,
    /// Header packets still to come after the first (from the first packet's count).
    headers_left: u16,
}

/// The first packet of an Ogg FLAC stream: 0x7F "FLAC", version 1.x, the number of
/// header packets that follow, "fLaC", the STREAMINFO block (header + 34 bytes).
fn first_packet(p: &[u8]) -> Option<(StreamInfo, u16)> {
    if p.len() < 13 + 4 + 34 || &p[..5] != b"\x7FFLAC" || p[5] != 1 || &p[9..13] != b"fLaC" {
        return None;
    }
    let headers = u16::from_be_bytes([p[7], p[8]]);
    let block = &p[13..];
    // Block type 0 is STREAMINFO, 34 bytes long.
    if block[0] & 0x7F != 0 || block[1..4] != [0, 0, 34] {
        return None;
    }
    Some((StreamInfo::parse(&block[4..])?, headers))
}

impl OggFlac {
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether `bytes` (the start of a publisher's stream) look like Ogg FLAC: an Ogg page
    /// whose first packet is the FLAC mapping's. Only the first page is read.
    pub fn sniff(bytes: &[u8]) -> bool {
        let mut ogg = OggReader::new();
        let mut found = false;
        ogg.push(bytes, |p| {
            found = first_packet(p).is_some();
            found
        });
        found
    }

    /// The stream's STREAMINFO, once its first packet has come.
    pub fn info(&self) -> Option<&StreamInfo> {
        self.info.as_ref()
    }

    pub fn push(&mut self, bytes: &[u8]) -> Demuxed {
        let mut out = Demuxed::default();
        for packet in self.ogg.push(bytes, |p| first_packet(p).is_some()) {
            if packet.first {
                let (info, headers) = first_packet(&packet.data).expect("accepted");
                self.info = Some(info);
                self.headers_left = headers;
                continue;
            }
            let Some(info) = &self.info else { continue };
            // An empty packet carries no audio (ffmpeg's muxer ends a stream with one, its
            // end-of-stream page): nothing to keep, nothing damaged.
            if packet.data.is_empty() {
                continue;
            }
            // Metadata packets (Vorbis comment, padding…): none of them starts with a
            // frame's sync code, whose first byte 0xFF is not a metadata block type.
            if self.headers_left > 0 && packet.data.first() != Some(&0xFF) {
                self.headers_left -= 1;
                continue;
            }
            match frame_samples(&packet.data, info) {
                Some(samples) => out.frames.push(FlacFrame {
                    data: Bytes::from(packet.data),
                    samples,
                }),
                None => out.rejected += 1,
            }
        }
        out
    }
}

/// Cuts a lossless rendition at the other renditions' part boundaries. A FLAC frame
/// (usually 4096 or 4608 samples) cannot be split without re-encoding, so a frame belongs
/// to the part in which its first sample lies: part `k` holds the frames starting in
/// `[k·P, (k+1)·P)` samples, P being the AAC renditions' part (frames per part × 1024).
/// Every part keeps its number; its `tfdt` is the true start of its first frame, at most
/// one frame after the AAC part's start. When the block size divides P (4096 with 12 AAC
/// frames of 1024 at 48 kHz, libFLAC's default) the boundaries are exactly the same.
#[derive(Debug)]
pub struct Cutter {
    part_samples: u64,
    /// Samples of the stream before the next frame.
    at: u64,
    part: u64,
    pending: Vec<FlacFrame>,
    pending_start: u64,
}

/// A finished part: its number (from the stream's start), the decode time of its first
/// sample and its frames.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CutPart {
    pub index: u64,
    pub start: u64,
    pub frames: Vec<FlacFrame>,
}

impl Cutter {
    pub fn new(part_samples: u32) -> Self {
        Self {
            part_samples: u64::from(part_samples.max(1)),
            at: 0,
            part: 0,
            pending: Vec::new(),
            pending_start: 0,
        }
    }

    /// Takes the next frame and answers the parts it finished (more than one only when a
    /// frame is longer than a part: the parts it skipped over are empty).
    pub fn push(&mut self, frame: FlacFrame) -> Vec<CutPart> {
        let part = self.at / self.part_samples;
        let mut done = Vec::new();
        while self.part < part {
            done.push(self.flush());
            self.part += 1;
        }
        if self.pending.is_empty() {
            self.pending_start = self.at;
        }
        self.at += u64::from(frame.samples);
        self.pending.push(frame);
        done
    }

    /// The longest part this stream can give, in samples: the lossless playlist's
    /// PART-TARGET (every part must be at most that long). With one block size that
    /// divides the AAC part (libFLAC's 4,096 at 48 kHz) the parts are the AAC ones
    /// exactly; otherwise a part's last frame may start one sample before the next
    /// boundary and run a whole block past it (ffmpeg's 4,608).
    pub fn longest_part(&self, info: &StreamInfo) -> u64 {
        let (min, max) = (u64::from(info.min_block()), u64::from(info.max_block()));
        if min == max && self.part_samples.is_multiple_of(max) {
            self.part_samples
        } else {
            self.part_samples + max.max(min) - 1
        }
    }

    /// The last, partial part (at the end of the stream).
    pub fn finish(&mut self) -> Option<CutPart> {
        (!self.pending.is_empty()).then(|| self.flush())
    }

    fn flush(&mut self) -> CutPart {
        let start = if self.pending.is_empty() {
            self.at
        } else {
            self.pending_start
        };
        CutPart {
            index: self.part,
            start,
            frames: std::mem::take(&mut self.pending),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::codecs::transcode::tests::ffmpeg;
    use crate::stream::test_media::{pcm, run};

    #[test]
    fn the_crcs_are_flac_s() {
        assert_eq!(crc8(b"123456789"), 0xF4);
        assert_eq!(crc16(b"123456789"), 0xFEE8);
    }

    /// ffmpeg's Ogg FLAC of a 3 s stereo tone at 48 kHz, 16 bits.
    fn ogg_flac(args: &[&str]) -> Vec<u8> {
        let mut all = vec!["-c:a", "flac"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["-f", "ogg"]);
        ffmpeg(
            "sine=frequency=440:sample_rate=48000:duration=3,aformat=channel_layouts=stereo",
            &all,
            "oga",
        )
    }

    #[test]
    fn an_ogg_flac_stream_gives_its_streaminfo_and_every_frame_however_it_is_chunked() {
        let bytes = ogg_flac(&["-frame_size", "4096"]);
        assert!(OggFlac::sniff(&bytes));
        for chunk in [1000, 7, bytes.len()] {
            let mut demux = OggFlac::new();
            let mut frames = Vec::new();
            let mut rejected = 0;
            for piece in bytes.chunks(chunk) {
                let d = demux.push(piece);
                frames.extend(d.frames);
                rejected += d.rejected;
            }
            let info = demux.info().expect("streaminfo");
            assert_eq!(info.sample_rate(), 48_000);
            assert_eq!(info.channels(), 2);
            assert_eq!(info.bits_per_sample(), 16);
            assert_eq!(rejected, 0);
            let total: u32 = frames.iter().map(|f| f.samples).sum();
            assert_eq!(total, 3 * 48_000, "every sample, chunk {chunk}");
            assert!(frames[..frames.len() - 1].iter().all(|f| f.samples == 4096));
        }
    }

    #[test]
    fn a_damaged_frame_is_left_out_and_other_formats_are_not_ogg_flac() {
        let bytes = ogg_flac(&[]);
        let mut demux = OggFlac::new();
        let good = demux.push(&bytes).frames;
        // Flip a byte inside the third frame: its CRC-16 no longer holds. The Ogg page's
        // CRC would catch it first, so damage the frame before it is paged: check it alone.
        let info = *demux.info().unwrap();
        let mut bad = good[2].data.to_vec();
        let mid = bad.len() / 2;
        bad[mid] ^= 0x10;
        assert_eq!(frame_samples(&good[2].data, &info), Some(good[2].samples));
        assert_eq!(frame_samples(&bad, &info), None);
        let opus = ffmpeg("sine=duration=1", &["-c:a", "libopus", "-f", "ogg"], "ogg");
        assert!(!OggFlac::sniff(&opus));
        assert!(!OggFlac::sniff(b"\xFF\xF1 not ogg"));
    }

    fn frame(samples: u32) -> FlacFrame {
        FlacFrame {
            data: Bytes::new(),
            samples,
        }
    }

    #[test]
    fn parts_hold_the_frames_that_start_in_them() {
        // 48 kHz: an AAC part is 12 frames of 1024 = 12,288 samples = 3 blocks of 4096.
        let mut cut = Cutter::new(12 * 1024);
        let mut parts = Vec::new();
        for _ in 0..9 {
            parts.extend(cut.push(frame(4096)));
        }
        parts.extend(cut.finish());
        assert_eq!(parts.len(), 3);
        for (k, p) in parts.iter().enumerate() {
            assert_eq!(p.index, k as u64);
            assert_eq!(
                p.start,
                k as u64 * 12_288,
                "the same boundary as the AAC parts"
            );
            assert_eq!(p.frames.len(), 3);
        }
        // ffmpeg's default of 4608: each part starts on the first frame at or after the
        // AAC boundary, less than one frame later.
        let mut cut = Cutter::new(12 * 1024);
        let mut parts = Vec::new();
        for _ in 0..40 {
            parts.extend(cut.push(frame(4608)));
        }
        let mut next = 0;
        for (k, p) in parts.iter().enumerate() {
            let boundary = k as u64 * 12_288;
            assert_eq!(p.index, k as u64);
            assert!(p.start >= boundary && p.start < boundary + 4608, "{p:?}");
            assert_eq!(p.start, next, "no gap and no overlap between parts");
            next = p.start + p.frames.iter().map(|f| u64::from(f.samples)).sum::<u64>();
        }
    }

    /// A STREAMINFO with these block sizes (48 kHz stereo, 16 bits).
    fn info(min: u16, max: u16) -> StreamInfo {
        let mut raw = [0u8; 34];
        raw[..2].copy_from_slice(&min.to_be_bytes());
        raw[2..4].copy_from_slice(&max.to_be_bytes());
        // 20 bits of rate, 3 of channels - 1, 5 of bits per sample - 1.
        let packed: u32 = (48_000 << 12) | (1 << 9) | (15 << 4);
        raw[10..14].copy_from_slice(&packed.to_be_bytes());
        StreamInfo::parse(&raw).expect("a valid STREAMINFO")
    }

    #[test]
    fn the_longest_part_is_the_aac_part_only_when_one_block_size_divides_it() {
        let cut = Cutter::new(12 * 1024);
        assert_eq!(cut.longest_part(&info(4096, 4096)), 12_288);
        assert_eq!(cut.longest_part(&info(4608, 4608)), 12_288 + 4607);
        assert_eq!(cut.longest_part(&info(1024, 4096)), 12_288 + 4095);
        // Every part ffmpeg's default blocks give is within it.
        let mut cut = Cutter::new(12 * 1024);
        let longest = cut.longest_part(&info(4608, 4608));
        let mut parts = Vec::new();
        for _ in 0..400 {
            parts.extend(cut.push(frame(4608)));
        }
        let lengths: Vec<u64> = parts
            .iter()
            .map(|p| p.frames.iter().map(|f| u64::from(f.samples)).sum())
            .collect();
        assert!(lengths.iter().all(|&n| n <= longest), "{lengths:?}");
        assert!(
            lengths.iter().any(|&n| n > 12_288),
            "some part runs past the AAC part"
        );
    }

    fn probe(path: &std::path::Path) -> String {
        let out = run(std::process::Command::new("ffprobe")
            .args(["-v", "error", "-show_entries"])
            .arg("stream=codec_name,sample_rate,channels")
            .args(["-of", "csv=p=0"])
            .arg(path));
        String::from_utf8_lossy(&out).trim().to_string()
    }

    /// The remux end to end: noise (so every bit counts) as a WAV, encoded by ffmpeg to Ogg
    /// FLAC, demuxed here and packaged as an init segment and one fragment per part; ffprobe
    /// reads the fMP4 as FLAC and ffmpeg decodes it to exactly the WAV's samples.
    fn remux_is_bit_exact(bits: u32) {
        use sha2::{Digest, Sha256};
        let dir = tempfile::tempdir().unwrap();
        let wav = dir.path().join("source.wav");
        let codec = if bits == 24 { "pcm_s24le" } else { "pcm_s16le" };
        run(std::process::Command::new("ffmpeg")
            .args(["-v", "error", "-f", "lavfi", "-i"])
            .arg("anoisesrc=color=pink:sample_rate=48000:amplitude=0.5:duration=2:seed=7")
            .args(["-ac", "2", "-c:a", codec])
            .arg(&wav));
        let oga = dir.path().join("source.oga");
        let mut flac_args = vec!["-c:a", "flac"];
        if bits == 24 {
            flac_args.extend_from_slice(&["-sample_fmt", "s32"]);
        }
        run(std::process::Command::new("ffmpeg")
            .args(["-v", "error", "-i"])
            .arg(&wav)
            .args(&flac_args)
            .args(["-f", "ogg"])
            .arg(&oga));

        let mut demux = OggFlac::new();
        let frames = demux.push(&std::fs::read(&oga).unwrap()).frames;
        let info = *demux.info().unwrap();
        assert_eq!(u32::from(info.bits_per_sample()), bits);
        let mut mp4 = crate::stream::codecs::fmp4::flac_init_segment(&info);
        let mut cut = Cutter::new(12 * 1024);
        let mut parts = Vec::new();
        for f in frames {
            parts.extend(cut.push(f));
        }
        parts.extend(cut.finish());
        assert!(parts.len() >= 7);
        for (seq, part) in parts.iter().enumerate() {
            let samples: Vec<(&[u8], u32)> = part
                .frames
                .iter()
                .map(|f| (f.data.as_ref(), f.samples))
                .collect();
            mp4.extend(crate::stream::codecs::fmp4::timed_fragment(
                seq as u32 + 1,
                part.start,
                &samples,
            ));
        }
        let out = dir.path().join("lossless.mp4");
        std::fs::write(&out, &mp4).unwrap();
        assert_eq!(probe(&out), "flac,48000,2");

        let format = if bits == 24 { "s32le" } else { "s16le" };
        let (source, ours) = (pcm(&wav, format), pcm(&out, format));
        assert_eq!(
            source.len(),
            2 * 48_000 * 2 * (if bits == 24 { 4 } else { 2 })
        );
        // Over the same samples: all of them, as nothing was dropped.
        let n = source.len().min(ours.len());
        assert_eq!(n, source.len(), "every sample is in the rendition");
        assert_eq!(Sha256::digest(&source[..n]), Sha256::digest(&ours[..n]));
    }

    #[test]
    fn the_fmp4_remux_decodes_bit_exact_to_the_source_at_16_bits() {
        remux_is_bit_exact(16);
    }

    #[test]
    fn the_fmp4_remux_decodes_bit_exact_to_the_source_at_24_bits() {
        remux_is_bit_exact(24);
    }
}
