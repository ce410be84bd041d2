-- The dashboard's theme the account chose (light or dark), so that a new device starts
-- from it; NULL: never chosen (the device's own, dark by default).
ALTER TABLE accounts ADD COLUMN theme TEXT;
