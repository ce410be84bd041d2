//! Fragmented MP4 (CMAF) for AAC and FLAC audio: the init segment (`ftyp` + `moov`) and one media
//! fragment (`moof` + `mdat`) per LL-HLS part. A segment is its parts' bytes back to back,
//! so parts and segments are served from the same bytes. Boxes follow ISO/IEC 14496-12
//! and -14; every sample is a sync sample (AAC frames decode independently).

use crate::stream::codecs::adts::AacConfig;
use crate::stream::codecs::flac::StreamInfo;

/// Writes an MP4 box: 32-bit size, four-character type, body.
pub(crate) struct BoxWriter {
    buf: Vec<u8>,
    starts: Vec<usize>,
}

impl BoxWriter {
    pub(crate) fn new() -> Self {
        Self {
            buf: Vec::with_capacity(1024),
            starts: Vec::new(),
        }
    }
    pub(crate) fn open(&mut self, kind: &[u8; 4]) {
        self.starts.push(self.buf.len());
        self.buf.extend_from_slice(&[0, 0, 0, 0]);
        self.buf.extend_from_slice(kind);
    }
    /// A "full box": version and 24-bit flags after the type.
    pub(crate) fn open_full(&mut self, kind: &[u8; 4], version: u8, flags: u32) {
        self.open(kind);
        self.u32((u32::from(version) << 24) | (flags & 0x00FF_FFFF));
    }
    pub(crate) fn close(&mut self) {
        let start = self.starts.pop().expect("balanced boxes");
        let size = (self.buf.len() - start) as u32;
        self.buf[start..start + 4].copy_from_slice(&size.to_be_bytes());
    }
    pub(crate) fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    pub(crate) fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }
    pub(crate) fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }
    pub(crate) fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }
    pub(crate) fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }
    pub(crate) fn zeros(&mut self, n: usize) {
        self.buf.resize(self.buf.len() + n, 0);
    }
    pub(crate) fn matrix(&mut self) {
        for v in [0x0001_0000u32, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] {
            self.u32(v);
        }
    }
    pub(crate) fn finish(self) -> Vec<u8> {
        debug_assert!(self.starts.is_empty());
        self.buf
    }
}

pub const TRACK_ID: u32 = 1;

/// An MPEG-4 descriptor tag with its length (always written in the 4-byte form).
fn descriptor(w: &mut BoxWriter, tag: u8, body: &[u8]) {
    w.u8(tag);
    let len = body.len() as u32;
    w.bytes(&[
        0x80 | ((len >> 21) & 0x7F) as u8,
        0x80 | ((len >> 14) & 0x7F) as u8,
        0x80 | ((len >> 7) & 0x7F) as u8,
        (len & 0x7F) as u8,
    ]);
    w.bytes(body);
}

fn esds(w: &mut BoxWriter, config: &AacConfig) {
    let asc = config.audio_specific_config();
    let mut decoder_specific = BoxWriter::new();
    descriptor(&mut decoder_specific, 0x05, &asc);
    let mut decoder_config = vec![0x40, 0x15, 0, 0, 0]; // AAC, audio stream, buffer size
    decoder_config.extend_from_slice(&0u32.to_be_bytes()); // max bitrate: unknown
    decoder_config.extend_from_slice(&0u32.to_be_bytes()); // avg bitrate: unknown
    decoder_config.extend_from_slice(&decoder_specific.finish());
    let mut es = BoxWriter::new();
    es.u16(TRACK_ID as u16);
    es.u8(0);
    descriptor(&mut es, 0x04, &decoder_config);
    descriptor(&mut es, 0x06, &[0x02]);
    let es = es.finish();
    w.open_full(b"esds", 0, 0);
    descriptor(w, 0x03, &es);
    w.close();
}

/// A sound track's `hdlr`, then `minf` opened with its `smhd` and `dinf` (the media is in
/// this file): the sample table comes next, and the caller closes `minf`.
pub(crate) fn sound_handler(w: &mut BoxWriter) {
    w.open_full(b"hdlr", 0, 0);
    w.u32(0);
    w.bytes(b"soun");
    w.zeros(12);
    w.bytes(b"Encore audio\0");
    w.close();
    w.open(b"minf");
    w.open_full(b"smhd", 0, 0);
    w.u16(0); // balance
    w.u16(0);
    w.close();
    w.open(b"dinf");
    w.open_full(b"dref", 0, 0);
    w.u32(1);
    w.open_full(b"url ", 0, 1); // media is in this file
    w.close();
    w.close();
    w.close();
}

/// `stsd` with the one `mp4a` sample entry of an AAC track.
pub(crate) fn sample_description(w: &mut BoxWriter, config: &AacConfig) {
    w.open_full(b"stsd", 0, 0);
    w.u32(1);
    mp4a_entry(w, config);
    w.close(); // stsd
}

/// The `mp4a` sample entry of an AAC track, with its `esds`.
fn mp4a_entry(w: &mut BoxWriter, config: &AacConfig) {
    w.open(b"mp4a");
    w.zeros(6);
    w.u16(1); // data reference index
    w.zeros(8);
    w.u16(u16::from(config.channels));
    w.u16(16); // sample size
    w.u16(0);
    w.u16(0);
    w.u32(config.sample_rate().min(0xFFFF) << 16);
    esds(w, config);
    w.close(); // mp4a
}

/// `ftyp` + `moov` describing one AAC track whose timescale is its sample rate.
pub fn init_segment(config: &AacConfig) -> Vec<u8> {
    init(config.sample_rate(), |w| mp4a_entry(w, config))
}

/// `ftyp` + `moov` describing one FLAC track (the "Encapsulation of FLAC in ISO Base
/// Media File Format" spec): an `fLaC` sample entry whose `dfLa` box holds the stream's
/// STREAMINFO as its only (so last) metadata block. The timescale is the sample rate.
pub fn flac_init_segment(info: &StreamInfo) -> Vec<u8> {
    init(info.sample_rate(), |w| {
        w.open(b"fLaC");
        w.zeros(6);
        w.u16(1); // data reference index
        w.zeros(8);
        w.u16(u16::from(info.channels()));
        w.u16(u16::from(info.bits_per_sample()));
        w.u16(0);
        w.u16(0);
        // A rate above 16 bits is written as 0 here: the STREAMINFO has the real one.
        let rate = info.sample_rate();
        w.u32(if rate <= 0xFFFF { rate << 16 } else { 0 });
        w.open_full(b"dfLa", 0, 0);
        w.u8(0x80); // last metadata block, type 0 (STREAMINFO)
        w.bytes(&[0, 0, 34]);
        w.bytes(&info.raw);
        w.close();
        w.close();
    })
}

fn init(rate: u32, sample_entry: impl FnOnce(&mut BoxWriter)) -> Vec<u8> {
    let mut w = BoxWriter::new();
    w.open(b"ftyp");
    w.bytes(b"iso6");
    w.u32(0);
    for brand in [b"iso6", b"cmfc", b"mp41", b"dash"] {
        w.bytes(brand);
    }
    w.close();

    w.open(b"moov");
    w.open_full(b"mvhd", 0, 0);
    w.u32(0); // creation
    w.u32(0); // modification
    w.u32(1000); // timescale
    w.u32(0); // duration: unknown (fragmented)
    w.u32(0x0001_0000); // rate 1.0
    w.u16(0x0100); // volume 1.0
    w.zeros(10);
    w.matrix();
    w.zeros(24);
    w.u32(TRACK_ID + 1); // next track id
    w.close();

    w.open(b"trak");
    w.open_full(b"tkhd", 0, 0x0000_0003); // enabled, in movie
    w.u32(0);
    w.u32(0);
    w.u32(TRACK_ID);
    w.u32(0);
    w.u32(0); // duration
    w.zeros(8);
    w.u16(0); // layer
    w.u16(1); // alternate group: audio
    w.u16(0x0100); // volume
    w.u16(0);
    w.matrix();
    w.u32(0); // width
    w.u32(0); // height
    w.close();

    w.open(b"mdia");
    w.open_full(b"mdhd", 0, 0);
    w.u32(0);
    w.u32(0);
    w.u32(rate);
    w.u32(0);
    w.u16(0x55C4); // language "und"
    w.u16(0);
    w.close();
    sound_handler(&mut w);
    w.open(b"stbl");
    w.open_full(b"stsd", 0, 0);
    w.u32(1);
    sample_entry(&mut w);
    w.close(); // stsd
    for empty in [b"stts", b"stsc", b"stco"] {
        w.open_full(empty, 0, 0);
        w.u32(0);
        w.close();
    }
    w.open_full(b"stsz", 0, 0);
    w.u32(0);
    w.u32(0);
    w.close();
    w.close(); // stbl
    w.close(); // minf
    w.close(); // mdia
    w.close(); // trak

    w.open(b"mvex");
    w.open_full(b"trex", 0, 0);
    w.u32(TRACK_ID);
    w.u32(1); // sample description index
    w.u32(0);
    w.u32(0);
    w.u32(0);
    w.close();
    w.close();
    w.close(); // moov
    w.finish()
}

/// One fragment: `moof` (with the decode time of its first sample) + `mdat`.
pub fn fragment(
    sequence: u32,
    base_decode_time: u64,
    samples: &[&[u8]],
    sample_duration: u32,
) -> Vec<u8> {
    let timed: Vec<(&[u8], u32)> = samples.iter().map(|s| (*s, sample_duration)).collect();
    timed_fragment(sequence, base_decode_time, &timed)
}

/// One fragment whose samples each have their own duration (FLAC frames: the last one of
/// a stream is usually shorter).
pub fn timed_fragment(sequence: u32, base_decode_time: u64, samples: &[(&[u8], u32)]) -> Vec<u8> {
    let mut w = BoxWriter::new();
    w.open(b"moof");
    w.open_full(b"mfhd", 0, 0);
    w.u32(sequence);
    w.close();
    w.open(b"traf");
    w.open_full(b"tfhd", 0, 0x02_0000); // default-base-is-moof
    w.u32(TRACK_ID);
    w.close();
    w.open_full(b"tfdt", 1, 0);
    w.u64(base_decode_time);
    w.close();
    // data offset, sample duration and sample size present for each sample
    w.open_full(b"trun", 0, 0x0000_0301);
    w.u32(samples.len() as u32);
    let data_offset_at = w.buf.len();
    w.u32(0);
    for (sample, duration) in samples {
        w.u32(*duration);
        w.u32(sample.len() as u32);
    }
    w.close(); // trun
    w.close(); // traf
    w.close(); // moof
    let moof_len = w.buf.len();
    // Sample data starts right after the moof and the 8-byte mdat header.
    let offset = (moof_len + 8) as u32;
    w.buf[data_offset_at..data_offset_at + 4].copy_from_slice(&offset.to_be_bytes());
    w.open(b"mdat");
    for (sample, _) in samples {
        w.bytes(sample);
    }
    w.close();
    w.finish()
}

/// The boxes right inside `data`: (type, body) pairs; `None` if a size runs past the end.
fn children(mut data: &[u8]) -> Option<Vec<([u8; 4], &[u8])>> {
    let mut out = Vec::new();
    while !data.is_empty() {
        let size = u32::from_be_bytes(data.get(..4)?.try_into().ok()?) as usize;
        let kind: [u8; 4] = data.get(4..8)?.try_into().ok()?;
        if size < 8 || size > data.len() {
            return None;
        }
        out.push((kind, &data[8..size]));
        data = &data[size..];
    }
    Some(out)
}

fn be32(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

/// The samples of fragments (one part, or a segment's parts back to back) as
/// [`fragment`] writes them: each `moof` with one `traf` whose `trun` gives every
/// sample's size and a data offset from the `moof`. `None` for anything else.
pub fn samples(data: &[u8]) -> Option<Vec<&[u8]>> {
    let mut out = Vec::new();
    let mut at = 0;
    for (kind, body) in children(data)? {
        let start = at;
        at += body.len() + 8;
        if &kind != b"moof" {
            continue;
        }
        let traf = children(body)?.into_iter().find(|(k, _)| k == b"traf")?.1;
        let trun = children(traf)?.into_iter().find(|(k, _)| k == b"trun")?.1;
        let flags = be32(trun, 0)? & 0x00FF_FFFF;
        let count = be32(trun, 4)? as usize;
        if flags & 0x1 == 0 || flags & 0x200 == 0 {
            return None; // no data offset or no sizes: not ours
        }
        let mut cursor = 12 + if flags & 0x4 != 0 { 4 } else { 0 };
        let mut offset = start + be32(trun, 8)? as usize;
        for _ in 0..count {
            if flags & 0x100 != 0 {
                cursor += 4;
            }
            let size = be32(trun, cursor)? as usize;
            cursor += 4;
            if flags & 0x400 != 0 {
                cursor += 4;
            }
            if flags & 0x800 != 0 {
                cursor += 4;
            }
            out.push(data.get(offset..offset + size)?);
            offset += size;
        }
    }
    Some(out)
}

/// The STREAMINFO of a FLAC init segment as [`flac_init_segment`] writes it (or any
/// ISO BMFF FLAC track): `moov/trak/mdia/minf/stbl/stsd/fLaC/dfLa`, whose first metadata
/// block must be the STREAMINFO. `None` for anything else.
pub fn flac_stream_info(init: &[u8]) -> Option<StreamInfo> {
    let mut body = init;
    for kind in [b"moov", b"trak", b"mdia", b"minf", b"stbl", b"stsd"] {
        body = children(body)?.into_iter().find(|(k, _)| k == kind)?.1;
    }
    // stsd: version/flags and the entry count, then the sample entries.
    let entry = children(body.get(8..)?)?
        .into_iter()
        .find(|(k, _)| k == b"fLaC")?
        .1;
    // An audio sample entry's fields take 28 bytes before its boxes.
    let dfla = children(entry.get(28..)?)?
        .into_iter()
        .find(|(k, _)| k == b"dfLa")?
        .1;
    let block = dfla.get(4..)?; // version/flags
    if block.first()? & 0x7F != 0 || block.get(1..4)? != [0, 0, 34] {
        return None;
    }
    StreamInfo::parse(block.get(4..)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxes(mut data: &[u8]) -> Vec<(String, usize)> {
        let mut out = Vec::new();
        while data.len() >= 8 {
            let size = u32::from_be_bytes([data[0], data[1], data[2], data[3]]) as usize;
            out.push((String::from_utf8_lossy(&data[4..8]).into_owned(), size));
            data = &data[size..];
        }
        out
    }

    #[test]
    fn the_init_segment_is_ftyp_then_moov_with_sizes_that_add_up() {
        let config = AacConfig {
            object_type: 2,
            sample_rate_index: 3,
            channels: 2,
        };
        let init = init_segment(&config);
        let top = boxes(&init);
        assert_eq!(
            top.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
            ["ftyp", "moov"]
        );
        assert_eq!(top.iter().map(|(_, s)| s).sum::<usize>(), init.len());
        let asc = config.audio_specific_config();
        assert!(
            init.windows(2).any(|w| w == asc),
            "the AudioSpecificConfig is in esds"
        );
    }

    #[test]
    fn a_fragment_points_its_data_offset_at_the_first_sample() {
        let samples: [&[u8]; 3] = [b"aaaa", b"bb", b"cccccc"];
        let frag = fragment(7, 1024 * 10, &samples, 1024);
        let top = boxes(&frag);
        assert_eq!(top[0].0, "moof");
        assert_eq!(top[1].0, "mdat");
        let moof_len = top[0].1;
        assert_eq!(&frag[moof_len + 8..], b"aaaabbcccccc");
        let trun = frag.windows(4).position(|w| w == b"trun").unwrap();
        let offset = u32::from_be_bytes(frag[trun + 12..trun + 16].try_into().unwrap()) as usize;
        assert_eq!(offset, moof_len + 8);
    }

    #[test]
    fn samples_read_back_what_fragments_wrote_across_a_segment() {
        let first: [&[u8]; 3] = [b"aaaa", b"bb", b"cccccc"];
        let second: [&[u8]; 1] = [b"dd"];
        let mut segment = fragment(1, 0, &first, 1024);
        segment.extend(fragment(2, 3072, &second, 1024));
        let read = samples(&segment).unwrap();
        assert_eq!(read, [&b"aaaa"[..], b"bb", b"cccccc", b"dd"]);
        assert!(
            samples(&segment[..segment.len() - 1]).is_none(),
            "cut short"
        );
    }

    #[test]
    fn the_streaminfo_reads_back_from_a_flac_init_segment_and_not_from_an_aac_one() {
        let mut raw = [0u8; 34];
        raw[0..2].copy_from_slice(&4096u16.to_be_bytes());
        raw[2..4].copy_from_slice(&4096u16.to_be_bytes());
        raw[10..14].copy_from_slice(&[0x0B, 0xB8, 0x02, 0xF0]); // 48 kHz, 2 ch, 16 bits
        raw[30] = 0x5A;
        let info = StreamInfo::parse(&raw).unwrap();
        assert_eq!(flac_stream_info(&flac_init_segment(&info)), Some(info));
        let config = AacConfig {
            object_type: 2,
            sample_rate_index: 3,
            channels: 2,
        };
        assert_eq!(flac_stream_info(&init_segment(&config)), None);
    }
}
