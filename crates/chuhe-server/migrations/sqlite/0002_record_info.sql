-- What an imported record said besides its moves (PCN JSON), given back on export.
ALTER TABLE games ADD COLUMN record_info TEXT;
