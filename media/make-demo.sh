#!/usr/bin/env bash
# Regenerates demo.aac, the demo concert's audio (`make run` pushes it on a loop with
# `encore push`): a synthesised 16-second arpeggio over a bass line, so it is ours to
# ship. AAC-LC in ADTS, 48 kHz stereo, 96 kbit/s.
set -euo pipefail
cd "$(dirname "$0")"
# Notes change every quarter second; each fades to silence before the next (no clicks). Semitones above A3 (220 Hz).
NOTES="0 4 7 12 7 4 0 4  -2 2 5 10 5 2 -2 2  -4 0 3 8 3 0 -4 0  -5 -1 2 7 2 -1 -5 -1"
expr="0"
i=0
for n in $NOTES; do
  expr="if(eq(mod(floor(t*4),32),$i),$n,$expr)"
  i=$((i + 1))
done
bass="if(lt(mod(t,8),2),-24,if(lt(mod(t,8),4),-26,if(lt(mod(t,8),6),-28,-29)))"
lead="0.3*(1-4*mod(t,0.25))*min(1,mod(t,0.25)*200)*sin(2*PI*220*pow(2,($expr)/12)*t)"
low="0.18*min(1,min(20*mod(t,2),20*(2-mod(t,2))))*sin(2*PI*220*pow(2,($bass)/12)*t)"
ffmpeg -hide_banner -loglevel error -y -f lavfi \
  -i "aevalsrc=exprs='$lead+$low|$lead*0.8+$low':sample_rate=48000:duration=16" \
  -af "aecho=0.8:0.6:180:0.3" -c:a aac -b:a 96k -f adts demo.aac
