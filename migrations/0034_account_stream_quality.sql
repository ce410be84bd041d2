-- The listening quality the account chose in the player (auto, saver, standard, high,
-- lossless), so
-- that its other devices and later sessions start from it; NULL: never chosen (Auto).
ALTER TABLE accounts ADD COLUMN stream_quality TEXT;
