"""dicehall's HTTP service: Flask app, marshmallow schemas, Redis store and rq jobs."""
