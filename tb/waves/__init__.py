"""Waveforms: GTKWave save files for a run, and the translate filter that shows instruction words as assembly."""
